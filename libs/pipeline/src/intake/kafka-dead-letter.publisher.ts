import { TOPICS, topicName } from '#contracts';
import { type DeadLetterMessage, type DeadLetterPublisher, type MessageProducer } from '../shared/ports.js';

/**
 * The most one produce request may carry. The broker refuses a partition's record batch over its
 * max.message.bytes (1048588 by default), and dead letters share a partition when they share a key.
 */
export const DEAD_LETTER_MAX_REQUEST_BYTES = 1_000_000;

/** Sends dead letters with the idempotent producer and acks from all in-sync replicas. */
export class KafkaDeadLetterPublisher implements DeadLetterPublisher {
  constructor(
    private readonly producer: MessageProducer,
    private readonly topicPrefix: string,
    private readonly maxRequestBytes = DEAD_LETTER_MAX_REQUEST_BYTES,
  ) {}

  /** In as many requests as their size needs, in order; a failure fails the call (the batch is redelivered). */
  async publish(messages: readonly DeadLetterMessage[]): Promise<void> {
    const topic = topicName(this.topicPrefix, TOPICS.commandsDlq);
    for (const chunk of chunksBySize(messages, this.maxRequestBytes)) {
      await this.producer.sendBatch({
        acks: -1,
        topicMessages: [
          { topic, messages: chunk.map((m) => ({ key: m.key, value: m.value, headers: m.headers })) },
        ],
      });
    }
  }

  async close(): Promise<void> {
    await this.producer.close();
  }
}

/** Roughly what a message adds to a record batch. */
export function deadLetterSize(m: DeadLetterMessage): number {
  let n = 70; // record framing, roughly
  n += m.key?.length ?? 0;
  n += m.value?.length ?? 0;
  for (const [k, v] of Object.entries(m.headers)) n += Buffer.byteLength(k) + Buffer.byteLength(v) + 8;
  return n;
}

function chunksBySize(messages: readonly DeadLetterMessage[], max: number): DeadLetterMessage[][] {
  const chunks: DeadLetterMessage[][] = [];
  let current: DeadLetterMessage[] = [];
  let size = 0;
  for (const m of messages) {
    const s = deadLetterSize(m);
    if (current.length > 0 && size + s > max) {
      chunks.push(current);
      current = [];
      size = 0;
    }
    current.push(m);
    size += s;
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}
