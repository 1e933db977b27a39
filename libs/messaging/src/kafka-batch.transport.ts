import { Server, type CustomTransportStrategy } from '@nestjs/microservices';
import { lastValueFrom } from 'rxjs';
import { type Consumer, type EachBatchPayload, type Kafka, type KafkaMessage } from 'kafkajs';
import { type AppLogger, NOOP_TRACING, type TraceSpan, type Tracing, validTraceparent } from '#observability';
import { type ConsumerFailures } from './consumer-failures.js';
import { whileBeating } from './heartbeat.js';

/** What a handler registered with `@EventPattern(<logical topic>)` receives. */
export interface KafkaBatch {
  readonly topic: string;
  readonly partition: number;
  readonly messages: readonly KafkaMessage[];
  /**
   * Per message (same order), the trace it belongs to: its consume span's traceparent when
   * tracing is on, else its own valid `traceparent` header; undefined: none (ADR 0015).
   */
  readonly traceparents: ReadonlyArray<string | undefined>;
  /** Keeps the consumer's session alive during long work. */
  heartbeat(): Promise<void>;
}

export interface KafkaBatchTransportOptions {
  readonly kafka: Kafka;
  readonly groupId: string;
  /** Maps a handler's logical pattern to the physical topic (e.g. adds a prefix). */
  readonly topicFor: (pattern: string) => string;
  readonly logger: AppLogger;
  /**
   * The handler patterns this transport's consumer serves (default: every `@EventPattern` of the
   * app). One consumer group per topic: members of a group must all subscribe to the same topics,
   * or kafkajs's group leader hands partitions of its own topics to members that drop them.
   */
  readonly patterns?: readonly string[];
  readonly fromBeginning?: boolean;
  /**
   * A killed member holds its partitions this long, and a restarted one waits about as long to
   * join: keep it short (kafkajs' default is 30 s). Heartbeats go out every `heartbeatIntervalMs`,
   * also while a batch is being handled, so a slow batch does not cost the member its place.
   */
  readonly sessionTimeoutMs?: number;
  readonly heartbeatIntervalMs?: number;
  /**
   * How long the broker may hold a fetch while nothing arrives (default: the heartbeat interval).
   * kafkajs heartbeats from its fetch loop, so an idle consumer heartbeats only when a fetch
   * returns: with kafkajs' 5 s default, an idle member (a quiet queries topic) learned of a
   * rebalance up to 5 s late, and a restarted instance's join waited for it.
   */
  readonly maxWaitTimeMs?: number;
  /** Partitions whose batches are handled at the same time (each in its own transaction). */
  readonly partitionsConsumedConcurrently?: number;
  /** Told of every batch's end, so readiness and metrics can show a partition that keeps failing. */
  readonly failures?: ConsumerFailures;
  /**
   * A consume span per message, child of its `traceparent` header (or a new trace), from the
   * batch's start to its commit (ADR 0015). Default: none.
   */
  readonly tracing?: Tracing;
}

/** The back-off between attempts to recreate a consumer kafkajs does not restart: 1, 2, 4 ... 30 s. */
const RECREATE_FIRST_DELAY_MS = 1_000;
const RECREATE_MAX_DELAY_MS = 30_000;

/**
 * A Nest transport that hands each Kafka batch (one partition's fetched messages) to the handler
 * whose pattern names the topic, and commits the batch's offsets only after the handler resolves.
 * If the handler throws, nothing is committed and the batch is delivered again: handlers must be
 * idempotent, which the ledger is by construction. See docs/adr/0004-kafka-batch-transport.md.
 */
export class KafkaBatchTransport extends Server implements CustomTransportStrategy {
  private consumer: Consumer | undefined;
  /** Physical topic to handler pattern, of this transport's consumer. */
  private topics: ReadonlyMap<string, string> = new Map();
  private closing = false;
  private consumerStartedAt = 0;
  private recreateAttempts = 0;
  private recreateTimer: NodeJS.Timeout | undefined;
  /** A recreated consumer has not joined its group yet. */
  private recreating = false;
  private readonly log: AppLogger;

  constructor(private readonly options: KafkaBatchTransportOptions) {
    super();
    this.log = options.logger.child({ component: 'kafka-transport', groupId: options.groupId });
  }

  on(): never {
    throw new Error('KafkaBatchTransport does not expose events; use the health indicator');
  }

  unwrap<T>(): T {
    if (!this.consumer) throw new Error('transport is not listening');
    return this.consumer as T;
  }

  listen(callback: (...optionalParams: unknown[]) => unknown): void {
    this.start().then(
      () => callback(),
      (e: unknown) => callback(e),
    );
  }

  private async start(): Promise<void> {
    const topics = new Map<string, string>();
    for (const pattern of this.getHandlers().keys()) {
      if (this.options.patterns && !this.options.patterns.includes(pattern)) continue;
      topics.set(this.options.topicFor(pattern), pattern);
    }
    if (topics.size === 0) return;
    this.topics = topics;
    await this.run(this.createConsumer());
    this.log.info({ topics: [...topics.keys()] }, 'consuming');
  }

  private createConsumer(): Consumer {
    const consumer = this.options.kafka.consumer({
      groupId: this.options.groupId,
      sessionTimeout: this.options.sessionTimeoutMs ?? 30_000,
      heartbeatInterval: this.options.heartbeatIntervalMs ?? 3_000,
      maxWaitTimeInMs: this.options.maxWaitTimeMs ?? this.options.heartbeatIntervalMs ?? 3_000,
      allowAutoTopicCreation: false,
      // kafkajs restarts a crashed consumer on a timer; a restart already connecting when
      // disconnect() runs is not cancelled and would go on restarting forever, keeping a closed
      // service's process alive. Once closing, a crash ends the consumer.
      // retries: 5 is kafkajs's own default for consumers, which a `retry` option would replace.
      retry: { retries: 5, restartOnFailure: () => Promise.resolve(!this.closing) },
    });
    consumer.on(consumer.events.CRASH, (e) => this.onCrash(consumer, e.payload.error, e.payload.restart));
    const mine = [...this.topics.keys()];
    consumer.on(consumer.events.GROUP_JOIN, (e) => {
      if (consumer !== this.consumer) return;
      this.options.failures?.assigned(e.payload.memberAssignment, mine);
      this.options.failures?.consumerJoined(this.options.groupId);
      if (!this.recreating) return;
      this.recreating = false;
      this.options.failures?.consumerRecreated(this.options.groupId);
      this.log.warn(
        { topics: mine, attempt: this.recreateAttempts },
        'consumer recreated after a crash kafkajs does not restart',
      );
    });
    this.consumer = consumer;
    this.consumerStartedAt = Date.now();
    return consumer;
  }

  /** Connects, subscribes and runs `consumer`; stops between the steps once the transport closes. */
  private async run(consumer: Consumer): Promise<void> {
    const stopIfClosing = async () => {
      if (!this.closing) return;
      await consumer.disconnect();
      throw new Error('the transport closed while its consumer started');
    };
    await consumer.connect();
    await stopIfClosing();
    await consumer.subscribe({
      topics: [...this.topics.keys()],
      fromBeginning: this.options.fromBeginning ?? true,
    });
    await stopIfClosing();
    await consumer.run({
      autoCommit: false,
      partitionsConsumedConcurrently: this.options.partitionsConsumedConcurrently ?? 1,
      eachBatchAutoResolve: false,
      eachBatch: (payload) => this.onBatch(consumer, payload),
    });
    await stopIfClosing();
  }

  /**
   * kafkajs starts a crashed consumer again only for errors it deems retriable (and asks
   * `restartOnFailure` only then). Others (an unrecoverable error such as a TypeError, a
   * non-retriable Kafka error such as a commit refused with UNKNOWN_MEMBER_ID) end it with
   * `restart: false`, and the process goes on with nothing reading its topics. Such a consumer is
   * replaced by a fresh one of the same group and topics, after a bounded back-off; what was not
   * committed is delivered again (the handlers are idempotent).
   */
  private onCrash(consumer: Consumer, error: Error, restart: boolean): void {
    this.log.warn({ err: error, groupId: this.options.groupId, restart }, 'consumer crashed');
    if (this.closing || consumer !== this.consumer) return;
    this.options.failures?.consumerCrashed(this.options.groupId, error);
    if (!restart) this.scheduleRecreation();
  }

  private scheduleRecreation(): void {
    // A consumer that ran well past the longest back-off before it crashed starts the count again.
    if (Date.now() - this.consumerStartedAt > 2 * RECREATE_MAX_DELAY_MS) this.recreateAttempts = 0;
    const delayMs = Math.min(RECREATE_FIRST_DELAY_MS * 2 ** this.recreateAttempts, RECREATE_MAX_DELAY_MS);
    this.recreateAttempts += 1;
    this.log.warn(
      { attempt: this.recreateAttempts, delayMs },
      'kafkajs does not restart this consumer: recreating it',
    );
    this.recreateTimer = setTimeout(() => void this.recreate(), delayMs);
  }

  /** A fresh consumer; counted and logged as recreated once it has joined its group. */
  private async recreate(): Promise<void> {
    this.recreateTimer = undefined;
    if (this.closing) return;
    this.recreating = true;
    const consumer = this.createConsumer();
    try {
      await this.run(consumer);
    } catch (e) {
      // Connecting or subscribing failed: kafkajs does not retry those for us.
      await consumer.disconnect().catch(() => undefined);
      if (this.closing) return;
      this.log.warn({ err: e, attempt: this.recreateAttempts }, 'recreating the consumer failed');
      this.options.failures?.consumerCrashed(this.options.groupId, e);
      this.scheduleRecreation();
    }
  }

  private async onBatch(consumer: Consumer, payload: EachBatchPayload): Promise<void> {
    const { batch } = payload;
    const pattern = this.topics.get(batch.topic);
    const handler = pattern === undefined ? null : this.getHandlerByPattern(pattern);
    if (!handler || batch.messages.length === 0) return;
    const tracing = this.options.tracing ?? NOOP_TRACING;
    const spans = tracing.enabled ? this.consumeSpans(tracing, pattern ?? batch.topic, payload) : undefined;
    const data: KafkaBatch = {
      topic: batch.topic,
      partition: batch.partition,
      messages: batch.messages,
      traceparents: spans
        ? spans.map((s) => s.traceparent)
        : batch.messages.map((m) => validTraceparent(headerOf(m, 'traceparent'))),
      heartbeat: () => payload.heartbeat(),
    };
    const handle = async () => {
      const result: unknown = await handler(data);
      await lastValueFrom(this.transformToObservable(result), { defaultValue: undefined });
    };
    // One message: its span is active in the handler (log lines carry its ids); several: each
    // ledger step places itself by the messages' traces (links).
    const only = spans?.length === 1 ? spans[0] : undefined;
    try {
      await whileBeating(
        () => payload.heartbeat(),
        this.options.heartbeatIntervalMs ?? 3_000,
        only ? () => tracing.withSpan(only, handle) : handle,
        (e) => this.log.warn({ err: e, topic: batch.topic, partition: batch.partition }, 'heartbeat failed'),
      );
      const last = batch.messages[batch.messages.length - 1];
      if (!last) return;
      payload.resolveOffset(last.offset);
      // autoCommit is off, so commitOffsetsIfNecessary would do nothing: commit explicitly, and
      // only now that the handler (and its database transaction) has finished.
      await consumer
        .commitOffsets([
          { topic: batch.topic, partition: batch.partition, offset: (BigInt(last.offset) + 1n).toString() },
        ])
        .catch((e: unknown) => {
          throw groupMembershipError(e) ?? e;
        });
      this.options.failures?.succeeded(batch.topic, batch.partition);
    } catch (e) {
      this.options.failures?.failed(batch.topic, batch.partition, e);
      for (const s of spans ?? []) s.fail(e);
      throw e;
    } finally {
      for (const s of spans ?? []) s.end();
    }
  }

  /** A consume span per message (semantic conventions for messaging; no key, no value). */
  private consumeSpans(tracing: Tracing, pattern: string, payload: EachBatchPayload): TraceSpan[] {
    const { batch } = payload;
    return batch.messages.map((m) =>
      tracing.startSpan(`process ${pattern}`, {
        kind: 'consumer',
        parents: [validTraceparent(headerOf(m, 'traceparent'))],
        attributes: {
          'messaging.system': 'kafka',
          'messaging.operation.type': 'process',
          'messaging.destination.name': batch.topic,
          'messaging.destination.partition.id': String(batch.partition),
          'messaging.kafka.offset': Number(m.offset),
          'messaging.consumer.group.name': this.options.groupId,
          'messaging.batch.message_count': batch.messages.length,
        },
      }),
    );
  }

  async close(): Promise<void> {
    this.closing = true;
    clearTimeout(this.recreateTimer);
    const consumer = this.consumer;
    this.consumer = undefined;
    if (consumer) await consumer.disconnect();
  }
}

/**
 * The group's answer that this member lost its place (dropped after its session, or the group
 * moved on to a new generation), from under kafkajs' retry wrapper. kafkajs' commit retrier wraps
 * such an answer in a KafkaJSNonRetriableError, which its fetch loop does not recognise, so the
 * consumer crashed with `restart: false` (the chaos run of 2026-11-27). Thrown bare, the loop
 * re-joins the group, as it does when a fetch or heartbeat gets the same answer.
 */
function groupMembershipError(e: unknown): Error | undefined {
  for (let c: unknown = e; c instanceof Error; c = c.cause) {
    const { type } = c as { type?: unknown };
    if (typeof type === 'string' && REJOIN_ERRORS.has(type)) return c;
  }
  return undefined;
}

const REJOIN_ERRORS = new Set([
  'UNKNOWN_MEMBER_ID',
  'ILLEGAL_GENERATION',
  'REBALANCE_IN_PROGRESS',
  'NOT_COORDINATOR_FOR_GROUP',
]);

/** A header's first value (kafkajs gives a Buffer, a string or an array of them). */
function headerOf(m: KafkaMessage, name: string): Buffer | string | undefined {
  const v = m.headers?.[name];
  return Array.isArray(v) ? v[0] : v;
}
