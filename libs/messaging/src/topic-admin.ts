import { type Kafka } from 'kafkajs';

export interface TopicSpec {
  readonly topic: string;
  readonly numPartitions?: number;
  readonly configEntries?: ReadonlyArray<{ name: string; value: string }>;
}

/**
 * Creates missing topics; existing ones are left as they are. Safe to call from every instance.
 * Returns once every topic asked for has a leader on each partition. kafkajs's own wait
 * (`waitForLeaders`) retries only "leader not available": a broker that has created the topic
 * but not yet loaded its partitions answers "This server does not host this topic-partition"
 * (UNKNOWN_TOPIC_OR_PARTITION, retriable), which it turned into a failure. This waits through
 * both, up to `timeoutMs`.
 */
export async function ensureTopics(
  kafka: Kafka,
  specs: readonly TopicSpec[],
  timeoutMs = 30_000,
): Promise<void> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const existing = new Set(await admin.listTopics());
    const missing = specs.filter((s) => !existing.has(s.topic));
    if (missing.length === 0) return;
    await admin.createTopics({
      waitForLeaders: false,
      topics: missing.map((s) => ({
        topic: s.topic,
        numPartitions: s.numPartitions ?? 3,
        replicationFactor: -1,
        configEntries: s.configEntries ? [...s.configEntries] : [],
      })),
    });
    await waitForLeaders(
      admin,
      missing.map((s) => s.topic),
      timeoutMs,
    );
  } finally {
    await admin.disconnect();
  }
}

type Admin = ReturnType<Kafka['admin']>;

/** Polls the topics' metadata until every partition has a leader; retriable errors are waited out. */
async function waitForLeaders(admin: Admin, topics: readonly string[], timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (let delay = 50; ; delay = Math.min(delay * 2, 1_000)) {
    let why: unknown;
    try {
      const { topics: meta } = await admin.fetchTopicMetadata({ topics: [...topics] });
      const ready =
        meta.length === topics.length &&
        meta.every((t) => t.partitions.length > 0 && t.partitions.every((p) => p.leader >= 0));
      if (ready) return;
      why = 'a partition has no leader yet';
    } catch (e) {
      if (!(e instanceof Error && (e as { retriable?: boolean }).retriable === true)) throw e;
      why = e;
    }
    if (Date.now() + delay > deadline) {
      throw new Error(`topics ${topics.join(', ')} have no leader after ${timeoutMs} ms`, { cause: why });
    }
    await new Promise((r) => setTimeout(r, delay));
  }
}
