import { type Kafka, type Producer } from 'kafkajs';
import { TOPICS, topicName } from '#contracts';
import { type DeadLetterMessage, type DeadLetterPublisher } from '../ports.js';

/** Sends dead letters with the idempotent producer and acks from all in-sync replicas. */
export class KafkaDeadLetterPublisher implements DeadLetterPublisher {
  private producer: Producer | undefined;
  private connected: Promise<void> | undefined;

  constructor(
    private readonly kafka: Kafka,
    private readonly topicPrefix: string,
  ) {}

  async publish(messages: readonly DeadLetterMessage[]): Promise<void> {
    if (messages.length === 0) return;
    this.producer ??= this.kafka.producer({
      idempotent: true,
      maxInFlightRequests: 1,
      allowAutoTopicCreation: false,
    });
    this.connected ??= this.producer.connect();
    await this.connected;
    await this.producer.send({
      topic: topicName(this.topicPrefix, TOPICS.commandsDlq),
      acks: -1,
      messages: messages.map((m) => ({ key: m.key, value: m.value, headers: m.headers })),
    });
  }

  async close(): Promise<void> {
    await this.producer?.disconnect();
  }
}
