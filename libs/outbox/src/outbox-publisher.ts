import { type IHeaders, type Kafka, type Message } from 'kafkajs';
import { topicName } from '#contracts';
import { ReconnectingProducer } from '#messaging';
import { type AppLogger } from '#observability';
import { type OutboxFailure, type OutboxRow } from './outbox.types.js';

export interface OutboxPublisherOptions {
  readonly kafka: Kafka;
  readonly topicPrefix: string;
  readonly logger: AppLogger;
  readonly maxMessageBytes: number;
  readonly sendTimeoutMs: number;
}

export interface PublishOutcome {
  readonly sent: readonly OutboxRow[];
  readonly failed: readonly OutboxFailure[];
  /**
   * Rows not sent because an earlier row of their key failed in this call: sending them would
   * publish a key's later event before its earlier one. Never any for the table relay, which
   * sends one row per key; the WAL relay's batches may hold several.
   */
  readonly held: readonly OutboxRow[];
}

/** Errors that concern a whole topic: every row of that topic would fail the same way. */
const TOPIC_ERRORS = new Set([
  'UNKNOWN_TOPIC_OR_PARTITION',
  'TOPIC_AUTHORIZATION_FAILED',
  'INVALID_TOPIC_EXCEPTION',
]);

/** Failures of reaching the broker in time: no row is to blame, so none is charged an attempt. */
const UNREACHABLE = new Set([
  'KafkaJSConnectionError',
  'KafkaJSConnectionClosedError',
  'KafkaJSBrokerNotFound',
  'KafkaJSNoBrokerAvailableError',
  'KafkaJSRequestTimeoutError',
  // The client waited for the cluster (a metadata refresh, a lock held by one) in vain.
  'KafkaJSTimeout',
  'KafkaJSLockTimeout',
  'KafkaJSMetadataNotLoaded',
  'KafkaJSTopicMetadataNotLoaded',
]);

/**
 * Broker answers that say the cluster, not the message, is in trouble: too few in-sync replicas,
 * timeouts, leadership moving, storage, the producer's own sequence state. Retried by kafkajs;
 * once its retries are spent the broker is treated as away, so a long outage kills no row.
 * (Message errors, e.g. MESSAGE_TOO_LARGE, and topic errors count against the row.)
 */
const BROKER_TROUBLE = new Set([
  'NOT_ENOUGH_REPLICAS',
  'NOT_ENOUGH_REPLICAS_AFTER_APPEND',
  'REQUEST_TIMED_OUT',
  'NETWORK_EXCEPTION',
  'LEADER_NOT_AVAILABLE',
  'NOT_LEADER_FOR_PARTITION',
  'NOT_LEADER_OR_FOLLOWER',
  'PREFERRED_LEADER_NOT_AVAILABLE',
  'REPLICA_NOT_AVAILABLE',
  'BROKER_NOT_AVAILABLE',
  'KAFKA_STORAGE_ERROR',
  'THROTTLING_QUOTA_EXCEEDED',
  'OUT_OF_ORDER_SEQUENCE_NUMBER',
  'UNKNOWN_PRODUCER_ID',
  'INVALID_PRODUCER_EPOCH',
]);

/** Thrown instead of per-row failures when the broker is away: the round is rolled back. */
export class BrokerUnavailableError extends Error {
  constructor(cause: unknown) {
    super(`Kafka is unavailable: ${describe(cause)}`, { cause });
    this.name = 'BrokerUnavailableError';
  }
}

/** Whether an error is the broker being away (every error of an aggregate, for a multi-broker send). */
function brokerAway(e: unknown): boolean {
  const errors = (e as { errors?: unknown } | undefined)?.errors;
  if (Array.isArray(errors) && errors.length > 0) return errors.every(brokerAway);
  for (let c: unknown = e, depth = 0; c && depth < 5; depth++) {
    const { name, type, cause } = c as { name?: unknown; type?: unknown; cause?: unknown };
    if (typeof name === 'string' && UNREACHABLE.has(name)) return true;
    if (typeof type === 'string' && BROKER_TROUBLE.has(type)) return true;
    c = cause;
  }
  return false;
}

function errorType(e: unknown): string | undefined {
  for (let c: unknown = e, depth = 0; c && depth < 5; depth++) {
    const { type, cause } = c as { type?: unknown; cause?: unknown };
    if (typeof type === 'string') return type;
    c = cause;
  }
  return undefined;
}

function describe(e: unknown): string {
  const type = errorType(e);
  const msg = e instanceof Error ? e.message : String(e);
  return type ? `${type}: ${msg}` : msg;
}

/**
 * Sends outbox rows with an idempotent producer (acks=all, one request in flight per broker, so a
 * retried request can neither duplicate nor reorder messages).
 *
 * After ANY failed send the producer is replaced before the next one. kafkajs rolls its sequence
 * numbers back when a produce request fails, yet the broker may already have appended some of that
 * request's partitions; a later, differently composed request reusing those numbers could then be
 * taken by the broker for a duplicate and silently dropped. A fresh producer id has fresh sequences.
 */
export class OutboxPublisher {
  /** Replaced after any failed send (ReconnectingProducer), as the class comment requires. */
  private readonly producer: ReconnectingProducer;
  private readonly log: AppLogger;

  constructor(private readonly options: OutboxPublisherOptions) {
    this.log = options.logger.child({ component: 'outbox-publisher' });
    this.producer = new ReconnectingProducer(options.kafka);
  }

  async connect(): Promise<void> {
    try {
      await this.producer.connect();
    } catch (e) {
      throw new BrokerUnavailableError(e);
    }
  }

  async disconnect(): Promise<void> {
    await this.producer.close().catch(() => undefined);
  }

  /**
   * One send for the whole batch; if it fails, each row alone so one bad row fails alone. Rows of
   * one key are sent in the given order, and none after one of its key failed (`held`).
   */
  async publish(rows: readonly OutboxRow[]): Promise<PublishOutcome> {
    const failed: OutboxFailure[] = [];
    const held: OutboxRow[] = [];
    const failedKeys = new Set<string>();
    const sendable: Array<{ row: OutboxRow; message: Message }> = [];
    for (const row of rows) {
      if (failedKeys.has(row.messageKey)) {
        held.push(row);
        continue;
      }
      const message = this.toMessage(row);
      const size = messageSize(message);
      if (size > this.options.maxMessageBytes) {
        // The broker would refuse it anyway, and a refused partition in a shared request costs the
        // whole batch a retry (see the class comment): fail it here, alone.
        failed.push({
          id: row.id,
          error: `message of ${size} bytes exceeds OUTBOX_MAX_MESSAGE_BYTES (${this.options.maxMessageBytes})`,
        });
        failedKeys.add(row.messageKey);
      } else {
        sendable.push({ row, message });
      }
    }
    // A key that failed above holds only its rows after the failure: the ones before it go.
    if (sendable.length === 0) return { sent: [], failed, held };
    try {
      await this.send(sendable);
      return { sent: sendable.map((s) => s.row), failed, held };
    } catch (e) {
      if (e instanceof BrokerUnavailableError || brokerAway(e)) throw new BrokerUnavailableError(e);
      if (sendable.length === 1) {
        failed.push({ id: sendable[0]!.row.id, error: describe(e) });
        return { sent: [], failed, held };
      }
      this.log.warn(
        { err: describe(e), rows: sendable.length },
        'batch send failed; sending its rows one by one',
      );
    }
    // Rows the broker did append before the failure are sent again here: at-least-once, in key order.
    const sent: OutboxRow[] = [];
    const badTopics = new Map<string, string>();
    // Keys that fail in this loop: rows of a key that failed before the batch were never in it.
    const loopFailed = new Set<string>();
    for (const s of sendable) {
      if (loopFailed.has(s.row.messageKey)) {
        held.push(s.row);
        continue;
      }
      const known = badTopics.get(s.row.topic);
      if (known !== undefined) {
        failed.push({ id: s.row.id, error: known });
        loopFailed.add(s.row.messageKey);
        continue;
      }
      try {
        await this.send([s]);
        sent.push(s.row);
      } catch (e) {
        // Rows this loop already sent are sent again by a later round: at-least-once.
        if (e instanceof BrokerUnavailableError || brokerAway(e)) throw new BrokerUnavailableError(e);
        const error = describe(e);
        if (TOPIC_ERRORS.has(errorType(e) ?? '')) badTopics.set(s.row.topic, error);
        failed.push({ id: s.row.id, error });
        loopFailed.add(s.row.messageKey);
      }
    }
    return { sent, failed, held };
  }

  private async send(items: ReadonlyArray<{ row: OutboxRow; message: Message }>): Promise<void> {
    await this.connect();
    const byTopic = new Map<string, Message[]>();
    for (const { row, message } of items) {
      const topic = topicName(this.options.topicPrefix, row.topic);
      const list = byTopic.get(topic) ?? [];
      list.push(message);
      byTopic.set(topic, list);
    }
    await this.producer.sendBatch({
      acks: -1,
      timeout: this.options.sendTimeoutMs,
      topicMessages: [...byTopic].map(([topic, messages]) => ({ topic, messages })),
    });
  }

  private toMessage(row: OutboxRow): Message {
    const headers: IHeaders = { ...row.headers, ce_id: row.eventId, ce_type: row.eventType };
    return { key: row.messageKey, value: row.payload, headers };
  }
}

function messageSize(m: Message): number {
  let n = 70; // record framing, roughly
  n += typeof m.key === 'string' ? Buffer.byteLength(m.key) : (m.key?.length ?? 0);
  n += typeof m.value === 'string' ? Buffer.byteLength(m.value) : (m.value?.length ?? 0);
  const headers = m.headers ?? {};
  // for...in, not Object.entries: no array of pairs per message (issue 23, allocation).
  for (const k in headers) {
    const v = headers[k];
    n += Buffer.byteLength(k) + (typeof v === 'string' ? Buffer.byteLength(v) : 0);
  }
  return n;
}
