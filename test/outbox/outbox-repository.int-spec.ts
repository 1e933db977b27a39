import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Registry } from 'prom-client';
import { PromOutboxMetrics } from '#outbox';
import { event, OutboxHarness } from './harness.js';

describe('OutboxRepository (real Postgres)', () => {
  let h: OutboxHarness;
  before(async () => {
    h = await OutboxHarness.create();
  });
  after(async () => {
    await h.close();
  });

  it('enqueue of an event id that is already pending is a no-op', async () => {
    const first = await h.repo.enqueue(h.pool, [event('dup', 1), event('dup', 2)]);
    assert.equal(first.inserted.length, 2);
    const again = await h.repo.enqueue(h.pool, [event('dup', 1), event('dup', 3)]);
    assert.equal(again.inserted.length, 1, 'only dup:3 is new');
    const { rows } = await h.pool.query<{ event_id: string }>(
      `SELECT event_id FROM outbox WHERE message_key = 'dup' ORDER BY id`,
    );
    assert.deepEqual(
      rows.map((r) => r.event_id),
      ['dup:1', 'dup:2', 'dup:3'],
    );
    // Once published, the same event id may be emitted again (the index is partial on pending).
    await h.pool.query(
      `UPDATE outbox SET state = 'published', published_at = now() WHERE event_id = 'dup:1'`,
    );
    assert.equal((await h.repo.enqueue(h.pool, [event('dup', 1)])).inserted.length, 1);
  });

  it('takes no lock per key: a large batch cannot exhaust the shared lock table', async () => {
    const c = await h.pool.connect();
    try {
      await c.query('BEGIN');
      const many = Array.from({ length: 3000 }, (_, i) => event(`bulk-${i}`, 1));
      assert.equal((await h.repo.enqueue(c, many)).inserted.length, 3000);
      const { rows } = await h.pool.query<{ n: string }>(
        `SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory'`,
      );
      assert.equal(rows[0]?.n, '0', 'ordering per key comes from the callers row locks, not from pg_locks');
      await c.query('ROLLBACK');
    } finally {
      c.release();
    }
  });

  it('claims only the head of each key, and skips heads another transaction holds', async () => {
    await h.pool.query('DELETE FROM outbox');
    await h.repo.enqueue(h.pool, [event('a', 1), event('a', 2), event('b', 1), event('b', 2), event('c', 1)]);
    await h.pool.query(`UPDATE outbox SET state = 'dead' WHERE event_id = 'c:1'`);
    const one = await h.pool.connect();
    const two = await h.pool.connect();
    try {
      await one.query('BEGIN');
      await two.query('BEGIN');
      const first = await h.repo.claimHeads(one, 1);
      assert.deepEqual(
        first.map((r) => r.eventId),
        ['a:1'],
      );
      const second = await h.repo.claimHeads(two, 10);
      assert.deepEqual(
        second.map((r) => r.eventId),
        ['b:1'],
        'a:1 is held, a:2 is not a head, c is blocked by its dead head',
      );
      await h.repo.markPublished(
        one,
        first.map((r) => r.id),
      );
      await one.query('COMMIT');
      await two.query('ROLLBACK');
      const third = await h.repo.claimHeads(two, 10);
      assert.deepEqual(
        third.map((r) => r.eventId),
        ['a:2', 'b:1'],
      );
    } finally {
      one.release();
      two.release();
    }
  });

  it('backs a failed row off, makes it dead at max attempts, and replays it', async () => {
    await h.pool.query('DELETE FROM outbox');
    const { inserted } = await h.repo.enqueue(h.pool, [event('f', 1)]);
    const id = inserted[0]!;
    const policy = { maxAttempts: 2, retryBaseMs: 60_000, retryMaxMs: 60_000 };
    assert.deepEqual(await h.repo.markFailed(h.pool, [{ id, error: 'boom' }], policy), []);
    const c = await h.pool.connect();
    try {
      assert.deepEqual(await h.repo.claimHeads(c, 10), [], 'backing off');
    } finally {
      c.release();
    }
    assert.deepEqual(await h.repo.markFailed(h.pool, [{ id, error: 'boom again' }], policy), [id]);
    const { rows } = await h.pool.query<{ state: string; attempts: number; last_error: string }>(
      'SELECT state, attempts, last_error FROM outbox WHERE id = $1',
      [id],
    );
    assert.deepEqual(rows[0], { state: 'dead', attempts: 2, last_error: 'boom again' });

    assert.equal(await h.repo.replayDead(h.pool, 'no-such-event'), 'not-found');
    // A re-emitted copy is pending behind it: the replay keeps the dead row's place in the key's
    // order and drops the copy, so the event is published once and the key is unblocked.
    const copy = (await h.repo.enqueue(h.pool, [event('f', 1)])).inserted[0]!;
    assert.equal(await h.repo.replayDead(h.pool, 'f:1'), 'replayed');
    const after = await h.pool.query<{
      id: string;
      state: string;
      attempts: number;
      last_error: string | null;
    }>(`SELECT id, state, attempts, last_error FROM outbox WHERE event_id = 'f:1'`);
    assert.deepEqual(after.rows, [{ id, state: 'pending', attempts: 0, last_error: null }]);
    assert.notEqual(copy, id);
    assert.equal(await h.repo.replayDead(h.pool, id), 'not-found', 'nothing dead left');
  });

  it('purges only published rows older than the retention, in bounded batches', async () => {
    await h.pool.query('DELETE FROM outbox');
    const rows = Array.from({ length: 25 }, (_, i) => event(`p${i}`, 1));
    await h.repo.enqueue(h.pool, rows);
    // 12 old published, 8 recent published, 5 still pending (and old).
    await h.pool.query(`
      UPDATE outbox SET state = 'published',
             published_at = CASE WHEN id <= (SELECT min(id) + 11 FROM outbox) THEN now() - interval '73 hours'
                                 ELSE now() - interval '71 hours' END,
             created_at = now() - interval '80 hours'
       WHERE id <= (SELECT min(id) + 19 FROM outbox)`);
    await h.pool.query(`UPDATE outbox SET created_at = now() - interval '100 hours' WHERE state = 'pending'`);
    const relay = h.relay({ retentionHours: 72, purgeBatchSize: 5 });
    assert.equal(await relay.purge(), 12);
    assert.deepEqual(await h.rowStates(), { published: 8, pending: 5 });
    assert.equal(await relay.purge(), 0);
  });

  it('reports backlog, oldest age and dead rows on scrape', async () => {
    await h.pool.query('DELETE FROM outbox');
    await h.repo.enqueue(h.pool, [event('m', 1), event('m', 2), event('n', 1)]);
    await h.pool.query(`UPDATE outbox SET created_at = now() - interval '30 seconds' WHERE event_id = 'm:1'`);
    await h.pool.query(`UPDATE outbox SET state = 'dead' WHERE event_id = 'n:1'`);
    const registry = new Registry();
    const metrics = new PromOutboxMetrics(registry, () => h.repo.stats(h.pool));
    metrics.published([0.01, 0.2]);
    const text = await registry.metrics();
    assert.match(text, /^payouts_outbox_backlog 2$/m);
    assert.match(text, /^payouts_outbox_dead_rows 1$/m);
    const age = Number(/^payouts_outbox_oldest_age_seconds (\S+)$/m.exec(text)?.[1]);
    assert.ok(age >= 30 && age < 60, `oldest age ${age}`);
    assert.match(text, /^payouts_relay_published_total 2$/m);
    assert.match(text, /^payouts_relay_publish_latency_seconds_count 2$/m);

    // A failing stats query must not fail the whole scrape.
    const other = new Registry();
    new PromOutboxMetrics(other, () => Promise.reject(new Error('database down')));
    assert.match(await other.metrics(), /^payouts_outbox_backlog 0$/m);
  });
});
