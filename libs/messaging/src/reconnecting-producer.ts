import { type Kafka, type Producer, type ProducerBatch, type ProducerConfig } from 'kafkajs';
import { JavaPartitioner } from './java-partitioner.js';

/**
 * The settings every producer of the service uses: idempotent, one request in flight per broker
 * (so a retried request can neither duplicate nor reorder messages), no topic created by a send,
 * and the Java client's partitioner (keys land where other clients, and kafkajs's
 * DefaultPartitioner, put them; JavaPartitioner only hashes faster).
 */
export const PRODUCER_SETTINGS: ProducerConfig = {
  idempotent: true,
  maxInFlightRequests: 1,
  allowAutoTopicCreation: false,
  createPartitioner: JavaPartitioner,
};

/**
 * The one producer class of the service: the outbox relay, the dead letters and the query replies
 * each hold one. It connects on first use and is replaced after any failure: a connect that was
 * refused (broker down) is tried again on the next send instead of being kept, and a send that
 * failed leaves no producer whose sequence numbers may be out of step with the broker (kafkajs
 * rolls them back, yet the broker may have appended part of the request). Callers retry by
 * calling again; messages are at least once, as with any retried produce.
 */
export class ReconnectingProducer {
  private producer: Producer | undefined;
  private connecting: Promise<Producer> | undefined;

  constructor(
    private readonly kafka: Kafka,
    private readonly config: ProducerConfig = PRODUCER_SETTINGS,
  ) {}

  /** Connects now (a send connects anyway); throws what the connect threw. */
  async connect(): Promise<void> {
    await this.connected();
  }

  async sendBatch(batch: ProducerBatch): Promise<void> {
    const producer = await this.connected();
    try {
      await producer.sendBatch(batch);
    } catch (e) {
      await this.drop(producer);
      throw e;
    }
  }

  private connected(): Promise<Producer> {
    if (this.producer) return Promise.resolve(this.producer);
    this.connecting ??= (async () => {
      const producer = this.kafka.producer(this.config);
      try {
        await producer.connect();
      } catch (e) {
        await producer.disconnect().catch(() => undefined);
        throw e;
      }
      this.producer = producer;
      return producer;
    })().finally(() => {
      this.connecting = undefined;
    });
    return this.connecting;
  }

  private async drop(producer: Producer): Promise<void> {
    if (this.producer === producer) this.producer = undefined;
    await producer.disconnect().catch(() => undefined);
  }

  async close(): Promise<void> {
    const producer = this.producer ?? (await this.connecting?.catch(() => undefined));
    this.producer = undefined;
    await producer?.disconnect();
  }
}
