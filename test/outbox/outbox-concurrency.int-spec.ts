import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
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
    const a = h.relay({ batchSize: 10 });
    const b = h.relay({ batchSize: 10 });
    await h.enqueueTx(range(1, 20).flatMap((k) => [event(`disjoint-${k}`, 1), event(`disjoint-${k}`, 2)]));
    const [ra, rb] = await Promise.all([a.round(), b.round()]);
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
