import { type Admin, type Kafka } from 'kafkajs';

/**
 * Lag of one consumer group: per topic, the sum over partitions of (end offset - committed offset).
 * A partition the group never committed counts from its earliest retained offset. The admin client
 * is kept between reads and replaced after a failure.
 */
export class ConsumerLagReader {
  private admin: Admin | undefined;

  constructor(
    private readonly kafka: Kafka,
    private readonly groupId: string,
    /** Topic names to read, each with the label to report it under. */
    private readonly topics: ReadonlyMap<string, string>,
  ) {}

  /** Label -> messages not yet committed by the group. */
  async read(): Promise<Map<string, number>> {
    try {
      const admin = await this.connectedAdmin();
      const names = [...this.topics.keys()];
      const committed = await admin.fetchOffsets({ groupId: this.groupId, topics: names });
      const lag = new Map<string, number>();
      for (const t of committed) {
        const ends = await admin.fetchTopicOffsets(t.topic);
        const done = new Map(t.partitions.map((p) => [p.partition, Number(p.offset)]));
        let sum = 0;
        for (const e of ends) {
          const high = Number(e.high);
          const c = done.get(e.partition) ?? -1;
          sum += Math.max(0, high - (c >= 0 ? c : Number(e.low)));
        }
        lag.set(this.topics.get(t.topic) ?? t.topic, sum);
      }
      return lag;
    } catch (e) {
      await this.close();
      throw e;
    }
  }

  private async connectedAdmin(): Promise<Admin> {
    if (this.admin) return this.admin;
    const admin = this.kafka.admin({ retry: { retries: 0 } });
    await admin.connect();
    this.admin = admin;
    return admin;
  }

  async close(): Promise<void> {
    const admin = this.admin;
    this.admin = undefined;
    await admin?.disconnect().catch(() => undefined);
  }
}
