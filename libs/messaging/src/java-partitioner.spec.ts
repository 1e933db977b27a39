import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { randomBytes } from 'node:crypto';
import { Partitioners, type PartitionMetadata } from 'kafkajs';
import { JavaPartitioner, murmur2 } from './java-partitioner.js';

// kafkajs's own hash (not exported by its index): what every key was partitioned with until now.
const kafkajsMurmur2 = createRequire(import.meta.url)(
  'kafkajs/src/producer/partitioners/default/murmur2.js',
) as (key: Buffer) => number;

function metadata(n: number, leaderless: readonly number[] = []): PartitionMetadata[] {
  return Array.from({ length: n }, (_, partitionId) => ({
    partitionErrorCode: 0,
    partitionId,
    leader: leaderless.includes(partitionId) ? -1 : 0,
    replicas: [0],
    isr: [0],
  }));
}

/** Keys of every length 0-80: the service's shapes, non-ASCII text and random bytes. */
function keys(): Array<Buffer | string> {
  const out: Array<Buffer | string> = [];
  for (let i = 0; i < 7_000; i++) {
    out.push(`payout/acc_${i % 97}/t_${i.toString(36)}`);
    out.push(`batch/acc_${i % 13}/${'é'.repeat(i % 7)}${i}`);
    out.push(randomBytes(i % 81));
  }
  return out;
}

describe('JavaPartitioner', () => {
  it("hashes like the Java client's test vectors (Kafka UtilsTest#testMurmur2)", () => {
    const vectors: Array<[string, number]> = [
      ['21', -973932308],
      ['foobar', -790332482],
      ['a-little-bit-long-string', -985981536],
      ['a-little-bit-longer-string', -1486304829],
      ['lkjh234lh9fiuh90y23oiuhsafujhadof229phr9h19h89h8', -58897971],
      ['abc', 479470107],
    ];
    for (const [key, hash] of vectors) assert.equal(murmur2(Buffer.from(key)), hash, key);
  });

  it("hashes every key as kafkajs's DefaultPartitioner does", () => {
    for (const key of keys()) {
      const bytes = typeof key === 'string' ? Buffer.from(key) : key;
      assert.equal(murmur2(bytes), kafkajsMurmur2(bytes), bytes.toString('hex'));
    }
  });

  it("puts every keyed message on kafkajs's DefaultPartitioner's partition, leaders or not", () => {
    const ours = JavaPartitioner();
    const theirs = Partitioners.DefaultPartitioner();
    const all = keys();
    for (const n of [1, 2, 3, 5, 6, 7, 12, 24, 50]) {
      const partitionMetadata = metadata(n, n > 2 ? [1] : []);
      for (const key of all) {
        const args = { topic: 't', partitionMetadata, message: { key, value: null } };
        assert.equal(ours(args), theirs(args), `${n} partitions`);
      }
    }
  });

  it('keeps an explicit partition and spreads unkeyed messages over partitions with a leader', () => {
    const partition = JavaPartitioner();
    const partitionMetadata = metadata(6, [2]);
    assert.equal(
      partition({ topic: 't', partitionMetadata, message: { key: 'k', value: null, partition: 4 } }),
      4,
    );
    const seen = new Set<number>();
    for (let i = 0; i < 50; i++) {
      seen.add(partition({ topic: 't', partitionMetadata, message: { key: null, value: null } }));
    }
    assert.deepEqual([...seen].sort(), [0, 1, 3, 4, 5]);
  });
});
