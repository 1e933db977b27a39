import { type Kafka } from 'kafkajs';

export interface TopicSpec {
  readonly topic: string;
  readonly numPartitions?: number;
  readonly configEntries?: ReadonlyArray<{ name: string; value: string }>;
}

/** Creates missing topics; existing ones are left as they are. Safe to call from every instance. */
export async function ensureTopics(kafka: Kafka, specs: readonly TopicSpec[]): Promise<void> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const existing = new Set(await admin.listTopics());
    const missing = specs.filter((s) => !existing.has(s.topic));
    if (missing.length === 0) return;
    await admin.createTopics({
      waitForLeaders: true,
      topics: missing.map((s) => ({
        topic: s.topic,
        numPartitions: s.numPartitions ?? 3,
        replicationFactor: -1,
        configEntries: s.configEntries ? [...s.configEntries] : [],
      })),
    });
  } finally {
    await admin.disconnect();
  }
}
