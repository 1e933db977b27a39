import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { type Kafka } from 'kafkajs';
import { ensureTopics } from './topic-admin.js';

/** A retriable protocol error as kafkajs throws it ("This server does not host this topic-partition"). */
function unknownTopic(): Error {
  return Object.assign(new Error('This server does not host this topic-partition'), {
    retriable: true,
    type: 'UNKNOWN_TOPIC_OR_PARTITION',
  });
}

/** An admin client whose metadata answers come from a script, one per call (the last repeats). */
function fakeKafka(answers: ReadonlyArray<Error | number>, existing: string[] = []) {
  const calls = { created: [] as string[], metadata: 0 };
  const admin = {
    connect: async () => {},
    disconnect: async () => {},
    listTopics: async () => existing,
    createTopics: async ({ topics }: { topics: Array<{ topic: string }> }) => {
      calls.created.push(...topics.map((t) => t.topic));
      return true;
    },
    fetchTopicMetadata: async ({ topics }: { topics: string[] }) => {
      const a = answers[Math.min(calls.metadata, answers.length - 1)];
      calls.metadata += 1;
      if (a instanceof Error) throw a;
      // `a` is the leader every partition reports: -1 while none is elected.
      return { topics: topics.map((name) => ({ name, partitions: [{ partitionId: 0, leader: a }] })) };
    },
  };
  return { kafka: { admin: () => admin } as unknown as Kafka, calls };
}

describe('ensureTopics', () => {
  it('waits out "does not host this topic-partition" and leaderless partitions after creating', async () => {
    const { kafka, calls } = fakeKafka([unknownTopic(), unknownTopic(), -1, 1]);
    await ensureTopics(kafka, [{ topic: 't1' }]);
    assert.deepEqual(calls.created, ['t1']);
    assert.equal(calls.metadata, 4);
  });

  it('leaves existing topics alone and asks nothing more', async () => {
    const { kafka, calls } = fakeKafka([unknownTopic()], ['t1']);
    await ensureTopics(kafka, [{ topic: 't1' }]);
    assert.deepEqual(calls, { created: [], metadata: 0 });
  });

  it('a non-retriable error is not waited out', async () => {
    const { kafka } = fakeKafka([new Error('authorization failed')]);
    await assert.rejects(ensureTopics(kafka, [{ topic: 't1' }]), /authorization failed/);
  });

  it('gives up after its timeout, saying which topics', async () => {
    const { kafka } = fakeKafka([unknownTopic()]);
    await assert.rejects(ensureTopics(kafka, [{ topic: 't1' }], 300), /t1 have no leader after 300 ms/);
  });
});
