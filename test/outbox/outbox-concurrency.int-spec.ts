import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { type Kafka, type Producer } from 'kafkajs';
import { type OutboxMetrics } from '#outbox';
import { eventually } from '#test-support';
import { event, OutboxHarness, range, versionsByKey, type Received } from './harness.js';

/** Counts what one relay instance published. */
function counting(): OutboxMetrics & { count: number } {
  const m = {
    count: 0,
    published(l: readonly number[]) {
      m.count += l.length;
    },
    failed() {},
  };
  return m;
}

/**
 * A Kafka whose producers hold every send until `open()`: a relay's round then keeps its claimed
 * rows locked for as long as the test needs, whatever the machine's load.
 */
function gatedKafka(kafka: Kafka): { kafka: Kafka; open(): void } {
  let open!: () => void;
  const gate = new Promise<void>((r) => (open = r));
  const gated = new Proxy(kafka, {
    get(target, prop, receiver) {
      if (prop !== 'producer') return Reflect.get(target, prop, receiver) as unknown;
      return (...args: Parameters<Kafka['producer']>): Producer => {
        const p = target.producer(...args);
        return new Proxy(p, {
          get(pt, pp, pr) {
            const v = Reflect.get(pt, pp, pr) as unknown;
            if ((pp !== 'send' && pp !== 'sendBatch') || typeof v !== 'function') return v;
            return async (...a: unknown[]) => {
              await gate;
              return (v as (...x: unknown[]) => unknown).apply(pt, a);
            };
          },
        });
      };
    },
  });
  return { kafka: gated, open };
}

describe('two OutboxRelay instances over one table', () => {
  let h: OutboxHarness;
  let got: Received[];
  before(async () => {
    h = await OutboxHarness.create();
    got = await h.consume();
  });
  after(async () => {
    await h.close();
  });

  const seen = (prefix: string) => got.filter((m) => m.key.startsWith(prefix));

  it('claim disjoint heads when their rounds overlap', async () => {
    const gated = gatedKafka(h.kafka);
    const a = h.relay({ batchSize: 10 }, undefined, gated.kafka);
    const b = h.relay({ batchSize: 10 });
    await h.enqueueTx(range(1, 20).flatMap((k) => [event(`disjoint-${k}`, 1), event(`disjoint-${k}`, 2)]));
    // a claims and holds its rows (its send waits at the gate) while b claims: the rounds overlap.
    const roundA = a.round();
    await eventually(
      async () => {
        const { rows } = await h.pool.query<{ n: string }>(
          `SELECT count(*) AS n FROM pg_stat_activity
            WHERE datname = current_database() AND state LIKE 'idle in transaction%'`,
        );
        return rows[0]?.n === '1' ? true : undefined;
      },
      { what: "a's claim transaction open" },
    );
    const rb = await b.round();
    gated.open();
    const ra = await roundA;
    assert.equal(ra.published, 10);
    assert.equal(rb.published, 10);
    await eventually(() => (seen('disjoint-').length >= 20 ? true : undefined), { what: '20 messages' });
    await sleep(200);
    const ids = seen('disjoint-').map((m) => m.eventId);
    assert.equal(new Set(ids).size, 20, 'no row was sent by both');
    // Each relay took the 10 oldest heads it could lock, so together: every key's first version
    // (a later version is never a head while the first is unpublished).
    assert.deepEqual(ids.filter((id) => id.endsWith(':2')).length, 0);
    await h.pool.query(`DELETE FROM outbox WHERE state = 'pending'`); // not for the next test
  });

  it('publish every row exactly once and in order per key while both run', async () => {
    const ma = counting();
    const mb = counting();
    // Small batches so the two interleave over many rounds.
    const a = h.relay({ batchSize: 7, pollIntervalMs: 50 }, ma);
    const b = h.relay({ batchSize: 7, pollIntervalMs: 50 }, mb);
    await Promise.all([a.start(), b.start()]);
    const keys = range(1, 20).map((k) => `both-${k}`);
    try {
      for (const v of range(1, 25)) await h.enqueueTx(keys.map((k) => event(k, v)));
      await eventually(() => (seen('both-').length >= 500 ? true : undefined), {
        what: '500 messages',
        timeoutMs: 30_000,
      });
      await sleep(300);
      const byKey = versionsByKey(seen('both-'));
      for (const k of keys)
        assert.deepEqual(byKey.get(k), range(1, 25), `versions of ${k}, once each, in order`);
      assert.equal(ma.count + mb.count, 500);
      assert.ok(ma.count > 0 && mb.count > 0, `both relays published (${ma.count} + ${mb.count})`);
      const { rows } = await h.pool.query<{ n: string }>(
        `SELECT count(*) AS n FROM outbox WHERE message_key LIKE 'both-%' AND state = 'published'`,
      );
      assert.equal(rows[0]?.n, '500');
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  });
});
