import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { Registry } from 'prom-client';
import { PromOutboxMetrics } from '#outbox';
import { eventually } from '#test-support';
import { event, OutboxHarness, range, versionsByKey, type Received } from './harness.js';

describe('OutboxRelay (real Kafka and Postgres)', () => {
  let h: OutboxHarness;
  let got: Received[];
  before(async () => {
    h = await OutboxHarness.create();
    got = await h.consume();
  });
  after(async () => {
    await h.close();
  });

  const keysSeen = (prefix: string) => got.filter((m) => m.key.startsWith(prefix));

  it('publishes rows once their transaction commits; a rolled-back transaction publishes nothing', async () => {
    const relay = h.relay({ pollIntervalMs: 100 });
    await relay.start();
    try {
      await h.enqueueTx([event('tx-rolled-back', 1)], 'rollback');
      const open = await h.pool.connect();
      try {
        await open.query('BEGIN');
        await h.repo.enqueue(open, [event('tx-open', 1), event('tx-open', 2)]);
        await sleep(500); // five poll intervals with the rows uncommitted
        assert.equal(keysSeen('tx-').length, 0, 'nothing is published before commit');
        await open.query('COMMIT');
      } finally {
        open.release();
      }
      await eventually(() => (keysSeen('tx-').length >= 2 ? true : undefined), { what: 'committed rows' });
      await h.enqueueTx([event('tx-after', 1)]);
      await eventually(() => (keysSeen('tx-after').length === 1 ? true : undefined), { what: 'a later row' });
      assert.deepEqual(
        keysSeen('tx-').map((m) => m.eventId),
        ['tx-open:1', 'tx-open:2', 'tx-after:1'],
      );
      const first = keysSeen('tx-open')[0];
      assert.equal(first?.headers['ce_type'], 'payout.status');
      assert.equal(first?.headers['content-type'], 'application/json');
    } finally {
      await relay.stop();
    }
  });

  it('keeps per-key order over 20 keys x 25 versions written while it runs', async () => {
    const registry = new Registry();
    const relay = h.relay(
      { batchSize: 50, pollIntervalMs: 100 },
      new PromOutboxMetrics(registry, () => h.repo.stats(h.pool)),
    );
    await relay.start();
    const keys = range(1, 20).map((k) => `ord-${k}`);
    try {
      // Some keys get one version per transaction, others several at once: both must keep order.
      for (let v = 1; v <= 25; v += 5) {
        await h.enqueueTx(keys.slice(0, 10).flatMap((k) => range(v, v + 4).map((x) => event(k, x))));
        for (const x of range(v, v + 4)) await h.enqueueTx(keys.slice(10).map((k) => event(k, x)));
      }
      await eventually(() => (keysSeen('ord-').length >= 500 ? true : undefined), {
        what: '500 messages',
        timeoutMs: 20_000,
      });
      await sleep(200); // would surface a duplicate that arrives late
      const byKey = versionsByKey(keysSeen('ord-'));
      for (const k of keys) assert.deepEqual(byKey.get(k), range(1, 25), `versions of ${k}`);
      for (const k of keys) {
        const partitions = new Set(got.filter((m) => m.key === k).map((m) => m.partition));
        assert.equal(partitions.size, 1, `${k} stays on one partition`);
      }
      const text = await registry.metrics();
      assert.match(text, /^payouts_relay_published_total 500$/m);
      assert.match(text, /^payouts_outbox_backlog 0$/m);
    } finally {
      await relay.stop();
    }
  });

  it('with no retention (the default), deletes what it published, in order, and still counts its latency', async () => {
    const registry = new Registry();
    const relay = h.relay(
      { retentionHours: 0, batchSize: 7, pollIntervalMs: 100 },
      new PromOutboxMetrics(registry, () => h.repo.stats(h.pool)),
    );
    await relay.start();
    const keys = range(1, 5).map((k) => `del-${k}`);
    try {
      await h.enqueueTx(keys.flatMap((k) => range(1, 6).map((v) => event(k, v))));
      await eventually(() => (keysSeen('del-').length >= 30 ? true : undefined), { what: '30 messages' });
      await sleep(200);
      const byKey = versionsByKey(keysSeen('del-'));
      for (const k of keys) assert.deepEqual(byKey.get(k), range(1, 6), `versions of ${k}`);
      const { rows } = await h.pool.query<{ n: string }>(
        `SELECT count(*) AS n FROM outbox WHERE message_key LIKE 'del-%'`,
      );
      assert.equal(rows[0]?.n, '0', 'no published row is kept');
      const text = await registry.metrics();
      assert.match(text, /^payouts_relay_published_total 30$/m);
      assert.match(text, /^payouts_relay_publish_latency_seconds_count 30$/m);
    } finally {
      await relay.stop();
    }
  });

  // At shutdown the service flushes what was just recorded. A round that claims nothing because
  // another holds the row (the relay's own loop mid-send) used to end the flush with the row unsent.
  it('flush() publishes what is pending, waiting out a row another holds, until its deadline', async () => {
    const relay = h.relay({ pollIntervalMs: 60_000 });
    await h.repo.enqueue(h.pool, [event('flush-held', 1)]);
    const holder = await h.pool.connect();
    try {
      await holder.query('BEGIN');
      await holder.query(`SELECT id FROM outbox WHERE message_key = 'flush-held' FOR UPDATE`);
      const released = sleep(300).then(() => holder.query('COMMIT'));
      await relay.flush(Date.now() + 5_000);
      await released;
    } finally {
      holder.release();
    }
    const pending = await h.pool.query(
      `SELECT 1 FROM outbox WHERE message_key = 'flush-held' AND state = 'pending'`,
    );
    assert.equal(pending.rowCount, 0, 'flushed, not left pending');
    await eventually(() => (keysSeen('flush-held').length === 1 ? true : undefined));
    await relay.stop();
  });

  it('wakes on NOTIFY long before its poll interval', async () => {
    const relay = h.relay({ pollIntervalMs: 60_000 });
    await relay.start();
    try {
      await sleep(200); // past the start-up round: only a notification can wake it now
      const t0 = Date.now();
      await h.enqueueTx([event('notify', 1)]);
      await eventually(() => (keysSeen('notify').length === 1 ? true : undefined), {
        what: 'notified delivery',
        timeoutMs: 5_000,
        intervalMs: 10,
      });
      const took = Date.now() - t0;
      assert.ok(took < 2_000, `delivered in ${took} ms with a 60 s poll interval`);
    } finally {
      await relay.stop();
    }
  });

  it('re-establishes LISTEN after its connection is killed', async () => {
    const relay = h.relay({ pollIntervalMs: 60_000 });
    await relay.start();
    try {
      assert.ok(relay.isListening);
      const { rows } = await h.pool.query<{ killed: boolean }>(
        `SELECT pg_terminate_backend(pid) AS killed FROM pg_stat_activity
          WHERE datname = current_database() AND application_name = 'payouts-listen-outbox'`,
      );
      assert.equal(rows.length, 1);
      await eventually(() => (relay.isListening ? undefined : true), {
        what: 'the drop to be seen',
        intervalMs: 10,
      });
      await eventually(() => (relay.isListening ? true : undefined), {
        what: 'LISTEN again',
        timeoutMs: 5_000,
      });
      await sleep(100);
      const t0 = Date.now();
      await h.enqueueTx([event('relisten', 1)]);
      await eventually(() => (keysSeen('relisten').length === 1 ? true : undefined), {
        what: 'delivery after reconnect',
        timeoutMs: 5_000,
        intervalMs: 10,
      });
      assert.ok(Date.now() - t0 < 2_000);
    } finally {
      await relay.stop();
    }
  });

  it('stop() waits for the round in flight and leaves no row claimed', async () => {
    const relay = h.relay({ pollIntervalMs: 60_000, batchSize: 500 });
    await relay.start();
    await h.enqueueTx(range(1, 300).map((i) => event(`stop-${i % 30}`, i)));
    await relay.stop();
    const { rows } = await h.pool.query<{ n: string }>(
      `SELECT count(*) AS n FROM pg_stat_activity
        WHERE datname = current_database() AND state LIKE 'idle in transaction%'`,
    );
    assert.equal(rows[0]?.n, '0', 'no claim transaction is left open');
    assert.equal(relay.isListening, false);
    // What the stopped relay did not publish, another picks up.
    const next = h.relay({ pollIntervalMs: 100 });
    await next.start();
    try {
      await eventually(() => (keysSeen('stop-').length >= 300 ? true : undefined), { what: 'the rest' });
      await sleep(200);
      assert.equal(
        keysSeen('stop-').length,
        300,
        'every row exactly once: the first relay marked all it sent',
      );
      assert.deepEqual(Object.keys(await h.rowStates()), ['published']);
    } finally {
      await next.stop();
    }
  });
});
