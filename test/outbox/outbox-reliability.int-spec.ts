import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Kafka, logLevel } from 'kafkajs';
import { ensureTopics } from '#messaging';
import { BrokerUnavailableError } from '#outbox';
import { eventually, PrivateBroker } from '#test-support';
import { event, EVENTS, OutboxHarness, range, type Received } from './harness.js';

interface RowState {
  state: string;
  attempts: number;
}

/** Per key, the event ids in arrival order with redeliveries dropped (what a deduping consumer keeps). */
function deduped(got: readonly Received[]): Map<string, number[]> {
  const seen = new Set<string>();
  const out = new Map<string, number[]>();
  for (const m of got) {
    if (seen.has(m.eventId)) continue;
    seen.add(m.eventId);
    out.set(m.key, [...(out.get(m.key) ?? []), m.version]);
  }
  return out;
}

// The relay's guarantees where they are hardest to keep: a dead head with a re-emitted copy
// behind it, a COMMIT that fails after the send, a broker that is away for a long time, and a
// backlog of over a million rows.
describe('OutboxRelay reliability', () => {
  let h: OutboxHarness;
  let got: Received[];
  before(async () => {
    h = await OutboxHarness.create();
    got = await h.consume();
  });
  after(async () => {
    await h.close();
  });

  const rowsOf = async (key: string): Promise<Array<RowState & { event_id: string }>> =>
    (
      await h.pool.query<RowState & { event_id: string }>(
        'SELECT event_id, state, attempts FROM outbox WHERE message_key = $1 ORDER BY id',
        [key],
      )
    ).rows;

  it('a replay of a dead head unblocks its key even when a copy of its event is pending behind it', async () => {
    // r:1 died while the relay failed; upstream retried the command meanwhile, and the intake
    // re-emitted r:1 (a pending copy, behind the dead head), then the payout moved on (r:2).
    await h.enqueueTx([event('r', 1)]);
    await h.pool.query(`UPDATE outbox SET state = 'dead', attempts = 3 WHERE message_key = 'r'`);
    await h.enqueueTx([event('r', 1)]);
    await h.enqueueTx([event('r', 2)]);
    const relay = h.relay();
    await relay.start();
    try {
      assert.equal(await relay.replayDead('r:1'), 'replayed');
      await eventually(() => (got.filter((m) => m.key === 'r').length >= 2 ? true : undefined), {
        what: 'the key to flow',
      });
      await eventually(
        async () => ((await rowsOf('r')).every((r) => r.state === 'published') ? true : undefined),
        { what: 'every row of the key published' },
      );
      assert.deepEqual(
        got.filter((m) => m.key === 'r').map((m) => m.eventId),
        ['r:1', 'r:2'],
        'the event once, from the dead row’s place, then the next one',
      );
    } finally {
      await relay.stop();
    }
  });

  it('after a failed COMMIT the same ids are published again, never others, and order per key holds', async () => {
    // A deferred constraint trigger fails the COMMIT of some relay rounds, after their send.
    // nextval is not rolled back, so the failures are spread over the run and then stop.
    await h.pool.query(`CREATE SEQUENCE commit_fault`);
    await h.pool.query(`
      CREATE FUNCTION commit_fault() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.state = 'published' AND OLD.message_key LIKE 'cf-%' THEN
          IF nextval('commit_fault') % 4 = 1 AND currval('commit_fault') < 40 THEN
            RAISE EXCEPTION 'injected commit failure';
          END IF;
        END IF;
        RETURN NULL;
      END $$`);
    await h.pool.query(`
      CREATE CONSTRAINT TRIGGER commit_fault AFTER UPDATE ON outbox
        DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION commit_fault()`);
    const keys = range(0, 5).map((k) => `cf-${k}`);
    for (const v of range(1, 6)) await h.enqueueTx(keys.map((k) => event(k, v)));
    const relay = h.relay({ batchSize: 4 });
    let failures = 0;
    try {
      for (let i = 0; i < 200; i++) {
        const r = await relay.round().catch((e: unknown) => {
          assert.match(String(e), /injected commit failure/);
          failures++;
          return { claimed: 1 };
        });
        if (r.claimed === 0) break;
      }
      await eventually(
        () =>
          new Set(got.filter((m) => keys.includes(m.key)).map((m) => m.eventId)).size === 36
            ? true
            : undefined,
        {
          what: 'every event of the keys',
        },
      );
    } finally {
      await relay.stop();
      await h.pool.query(`DROP TRIGGER commit_fault ON outbox`);
    }
    assert.ok(failures >= 3, `${failures} commits failed`);
    const mine = got.filter((m) => keys.includes(m.key));
    assert.ok(mine.length > 36, 'rows of failed commits were published again');
    const valueOf = new Map<string, string>();
    for (const m of mine) {
      assert.equal(m.eventId, (JSON.parse(m.value) as { id: string }).id, 'the header id is the payload id');
      const first = valueOf.get(m.eventId);
      if (first !== undefined) assert.equal(m.value, first, `${m.eventId} is re-published unchanged`);
      valueOf.set(m.eventId, m.value);
    }
    for (const k of keys) {
      const raw = mine.filter((m) => m.key === k).map((m) => m.version);
      assert.ok(
        raw.every((v, i) => i === 0 || v === raw[i - 1] || v === raw[i - 1]! + 1),
        `${k}: a redelivery repeats the last event only: ${raw.join(',')}`,
      );
      assert.deepEqual(deduped(mine).get(k), range(1, 6), `${k} after dedupe by id`);
    }
    for (const k of keys)
      assert.ok(
        (await rowsOf(k)).every((r) => r.state === 'published'),
        k,
      );
  });

  it('a hung broker (requests time out) kills no row, however long it lasts; the rows flow once it answers', async () => {
    // A private broker, frozen with SIGSTOP: connections stay open and every request times out,
    // as with a hung or partitioned broker (timeouts used to be charged to the rows).
    const broker = new PrivateBroker(); // two free ports of its own, taken at start
    await broker.start();
    const kafka = new Kafka({
      clientId: `hung-${h.prefix}`,
      brokers: broker.brokers,
      logLevel: logLevel.NOTHING,
      requestTimeout: 1_000,
      retry: { retries: 1, initialRetryTime: 100, maxRetryTime: 300 },
    });
    const relay = h.relay({ maxAttempts: 3, retryBaseMs: 1, retryMaxMs: 1 }, undefined, kafka);
    // The observer has kafkajs's default timeouts and retries: with the relay's short ones it
    // gave up for good when the new broker's group coordinator was not ready yet (a loaded
    // machine), and saw nothing; it must outlast the freeze, not crash in it.
    const observer = new Kafka({
      clientId: `hung-observer-${h.prefix}`,
      brokers: broker.brokers,
      logLevel: logLevel.NOTHING,
    });
    const consumer = observer.consumer({ groupId: `${h.prefix}.hung`, maxWaitTimeInMs: 100 });
    try {
      await ensureTopics(kafka, [{ topic: h.topic(EVENTS), numPartitions: 1 }]);
      const seen: string[] = [];
      await consumer.connect();
      await consumer.subscribe({ topic: h.topic(EVENTS), fromBeginning: true });
      await consumer.run({
        eachMessage: async ({ message }) => {
          seen.push(message.headers?.['ce_id']?.toString() ?? '');
        },
      });
      await h.enqueueTx([event('hung', 1)]);
      assert.equal((await relay.round()).published, 1, 'the relay reaches the broker');

      // One key: each round sends one row, alone (a lone row's failed send used to be charged to it).
      await h.enqueueTx([event('hung', 2), event('hung', 3)]);
      await broker.pause();
      try {
        for (let i = 0; i < 4; i++) {
          const outcome = await relay.round().then(
            (r) => r,
            (e: unknown) => e,
          );
          assert.ok(
            outcome instanceof BrokerUnavailableError,
            `round ${i}: ${outcome instanceof Error ? outcome.message : JSON.stringify(outcome)}; ${h.log.lines.slice(-2).join(' ')}`,
          );
        }
        for (const r of await rowsOf('hung'))
          if (r.event_id !== 'hung:1')
            assert.deepEqual(
              { state: r.state, attempts: r.attempts },
              { state: 'pending', attempts: 0 },
              `${r.event_id} after four rounds against a hung broker`,
            );
      } finally {
        await broker.resume();
      }
      await eventually(
        async () => {
          await relay.round().catch(() => undefined);
          return seen.includes('hung:3') ? true : undefined;
        },
        { timeoutMs: 30_000, what: 'the rows once the broker answers' },
      );
      // Requests the frozen broker had queued are appended when it thaws, and sent again by the
      // relay, which had given up on them: at-least-once, the same ids, in order after dedupe.
      assert.deepEqual(
        [...new Set(seen.filter((id) => id.startsWith('hung:')))],
        ['hung:1', 'hung:2', 'hung:3'],
      );
    } finally {
      await relay.stop();
      await consumer.disconnect().catch(() => undefined);
      await broker.destroy();
    }
  });

  it('after an outage (300 000 pending rows) a round reads about as many rows as it claims, through indexes', async () => {
    await h.pool.query('TRUNCATE outbox');
    // 30 keys blocked by a dead head with 100 rows each, then 100 000 keys with 3 versions each,
    // interleaved as they are written: version 1 of every key, then 2, then 3. The plan is the one
    // 1.5 million rows get (index scans, about 7 000 rows read; a smaller table tempts the planner
    // to scan more, not less), and a claim that walked the backlog would read 300 000, far past
    // the bound below. 1.5 million rows cost npm test 15 s more of inserting and proved no more.
    await h.pool.query(`
      INSERT INTO outbox (message_key, event_id, event_type, topic, payload, state)
      SELECT 'blocked-' || (g / 100), 'blocked-' || (g / 100) || ':' || (g % 100), 'payout.status', 'payouts.events',
             '{}'::jsonb, CASE WHEN g % 100 = 0 THEN 'dead' ELSE 'pending' END
        FROM generate_series(0, 2999) g`);
    await h.pool.query(`
      INSERT INTO outbox (message_key, event_id, event_type, topic, payload)
      SELECT 'k-' || (g % 100000), 'k-' || (g % 100000) || ':' || (g / 100000 + 1), 'payout.status',
             'payouts.events', '{}'::jsonb
        FROM generate_series(0, 299999) g`);
    await h.pool.query('ANALYZE outbox');
    const c = await h.pool.connect();
    try {
      await c.query('BEGIN');
      // The statement the relay runs, as the repository runs it (the comment names it).
      const text = await claimHeadsText();
      const { rows } = await c.query<{ 'QUERY PLAN': unknown }>(
        `EXPLAIN (ANALYZE, FORMAT JSON) ${text.replace('$1', '500')}`,
      );
      const plan = JSON.stringify(rows[0]?.['QUERY PLAN']);
      const nodes = flatten((rows[0]?.['QUERY PLAN'] as Array<{ Plan: PlanNode }>)[0]!.Plan);
      assert.ok(
        !nodes.some((n) => n['Node Type'] === 'Seq Scan'),
        `no sequential scan: ${plan.slice(0, 2000)}`,
      );
      const read = nodes
        .filter((n) => /Scan/.test(n['Node Type']))
        .reduce((sum, n) => sum + (n['Actual Rows'] ?? 0) * (n['Actual Loops'] ?? 1), 0);
      assert.ok(read < 20_000, `rows read by the claim: ${read} (3 000 blocked + 500 heads, not 300 000)`);
      const claimed = await h.repo.claimHeads(c, 500);
      assert.equal(claimed.length, 500);
      assert.ok(claimed.every((r) => r.messageKey.startsWith('k-') && r.eventId.endsWith(':1')));
      await c.query('ROLLBACK');
    } finally {
      c.release();
    }
    await h.pool.query('TRUNCATE outbox');
  });
});

interface PlanNode {
  'Node Type': string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  Plans?: PlanNode[];
}

function flatten(n: PlanNode): PlanNode[] {
  return [n, ...(n.Plans ?? []).flatMap(flatten)];
}

/** The claim statement as the relay sends it, caught from the repository itself. */
async function claimHeadsText(): Promise<string> {
  const { OutboxRepository } = await import('#outbox');
  let text = '';
  const spy = {
    query: (q: string | { text: string }) => {
      text = typeof q === 'string' ? q : q.text;
      return Promise.resolve({ rows: [] });
    },
  };
  await new OutboxRepository().claimHeads(spy as never, 1);
  return text;
}
