import { Server, type CustomTransportStrategy } from '@nestjs/microservices';
import { lastValueFrom } from 'rxjs';
import { type Consumer, type EachBatchPayload, type Kafka, type KafkaMessage } from 'kafkajs';
import { type AppLogger } from '#observability';
import { type ConsumerFailures } from './consumer-failures.js';
import { whileBeating } from './heartbeat.js';

/** What a handler registered with `@EventPattern(<logical topic>)` receives. */
export interface KafkaBatch {
  readonly topic: string;
  readonly partition: number;
  readonly messages: readonly KafkaMessage[];
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
}

/**
 * A Nest transport that hands each Kafka batch (one partition's fetched messages) to the handler
 * whose pattern names the topic, and commits the batch's offsets only after the handler resolves.
 * If the handler throws, nothing is committed and the batch is delivered again: handlers must be
 * idempotent, which the ledger is by construction. See docs/adr/0004-kafka-batch-transport.md.
 */
export class KafkaBatchTransport extends Server implements CustomTransportStrategy {
  private consumer: Consumer | undefined;
  private closing = false;
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
    consumer.on(consumer.events.CRASH, (e) =>
      this.log.warn(
        { err: e.payload.error, groupId: e.payload.groupId, restart: e.payload.restart },
        'consumer crashed',
      ),
    );
    this.consumer = consumer;
    const failures = this.options.failures;
    if (failures) {
      const mine = [...topics.keys()];
      consumer.on(consumer.events.GROUP_JOIN, (e) => failures.assigned(e.payload.memberAssignment, mine));
    }
    await consumer.connect();
    await consumer.subscribe({
      topics: [...topics.keys()],
      fromBeginning: this.options.fromBeginning ?? true,
    });
    await consumer.run({
      autoCommit: false,
      partitionsConsumedConcurrently: this.options.partitionsConsumedConcurrently ?? 1,
      eachBatchAutoResolve: false,
      eachBatch: (payload) => this.onBatch(payload, topics),
    });
    this.log.info({ topics: [...topics.keys()] }, 'consuming');
  }

  private async onBatch(payload: EachBatchPayload, topics: ReadonlyMap<string, string>): Promise<void> {
    const { batch } = payload;
    const pattern = topics.get(batch.topic);
    const handler = pattern === undefined ? null : this.getHandlerByPattern(pattern);
    if (!handler || batch.messages.length === 0) return;
    const data: KafkaBatch = {
      topic: batch.topic,
      partition: batch.partition,
      messages: batch.messages,
      heartbeat: () => payload.heartbeat(),
    };
    try {
      await whileBeating(
        () => payload.heartbeat(),
        this.options.heartbeatIntervalMs ?? 3_000,
        async () => {
          const result: unknown = await handler(data);
          await lastValueFrom(this.transformToObservable(result), { defaultValue: undefined });
        },
        (e) => this.log.warn({ err: e, topic: batch.topic, partition: batch.partition }, 'heartbeat failed'),
      );
      const last = batch.messages[batch.messages.length - 1];
      if (!last) return;
      payload.resolveOffset(last.offset);
      // autoCommit is off, so commitOffsetsIfNecessary would do nothing: commit explicitly, and
      // only now that the handler (and its database transaction) has finished.
      await this.consumer?.commitOffsets([
        { topic: batch.topic, partition: batch.partition, offset: (BigInt(last.offset) + 1n).toString() },
      ]);
      this.options.failures?.succeeded(batch.topic, batch.partition);
    } catch (e) {
      this.options.failures?.failed(batch.topic, batch.partition, e);
      throw e;
    }
  }

  async close(): Promise<void> {
    this.closing = true;
    const consumer = this.consumer;
    this.consumer = undefined;
    if (consumer) await consumer.disconnect();
  }
}
