import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { LedgerStatsRepository } from '#ledger';
import { OutboxRepository } from '#outbox';
import { BatchMoves } from '../../libs/ledger/src/batch-moves.repository.js';
import { PayoutMoves } from '../../libs/ledger/src/payout-moves.repository.js';
import { createTestDatabase, type TestDatabase } from '#test-support';

// Issue 23: a fresh database, and a production outbox that was empty when autovacuum last looked,
// have no statistics for the burst that arrives. With the LIMIT as a value the planner saw, it
// estimated a few hundred rows, read every pending row through a bitmap and sorted them (54 ms a
// relay round against 2.2 ms, 4.0 ms a claim against 0.11 ms). The two claims must walk their
// index in order whatever the statistics say, and whether Postgres plans them with their values
// (custom plan) or once for all values (generic plan, as a prepared statement may be).

interface PlanNode {
  readonly 'Node Type': string;
  readonly 'Index Name'?: string;
  readonly 'Relation Name'?: string;
  readonly Plans?: readonly PlanNode[];
}

function nodes(n: PlanNode): PlanNode[] {
  return [n, ...(n.Plans ?? []).flatMap(nodes)];
}

/**
 * A client that EXPLAINs (no ANALYZE: nothing runs, nothing is locked) what a repository sends:
 * planned with its values, as a first execution is, or once for any values (a generic plan, as a
 * prepared statement may get after five executions: PREPARE, then EXPLAIN EXECUTE).
 */
/** `answer`: the rows each explained statement returns instead of its own (none by default). */
function explaining(
  client: pg.PoolClient,
  generic: boolean,
  plans: PlanNode[],
  answer: readonly object[] = [],
): pg.PoolClient {
  const query = async (arg: string | pg.QueryConfig, values?: unknown[]): Promise<{ rows: object[] }> => {
    const text = typeof arg === 'string' ? arg : arg.text;
    const params = (typeof arg === 'string' ? values : arg.values) ?? [];
    type Explained = { 'QUERY PLAN': [{ Plan: PlanNode }] };
    let rows: Explained[];
    if (generic) {
      await client.query(`PREPARE plan_probe AS ${text}`);
      try {
        // An array parameter as an array literal ({1,2}): the values here are plain words.
        const literal = (v: unknown): string =>
          Array.isArray(v) ? `{${v.map(String).join(',')}}` : String(v);
        const args = params.map((v) => client.escapeLiteral(literal(v))).join(', ');
        ({ rows } = await client.query<Explained>(`EXPLAIN (FORMAT JSON) EXECUTE plan_probe(${args})`));
      } finally {
        await client.query('DEALLOCATE plan_probe');
      }
    } else {
      ({ rows } = await client.query<Explained>(`EXPLAIN (FORMAT JSON) ${text}`, params));
    }
    plans.push(rows[0]!['QUERY PLAN'][0].Plan);
    return { rows: [...answer] };
  };
  return { query } as unknown as pg.PoolClient;
}

/** A sort under a LIMIT sorts the whole backlog; one above it (the IN's de-duplication) only the claimed rows. */
function sortsBeforeLimit(plan: PlanNode): boolean {
  return nodes(plan)
    .filter((n) => n['Node Type'] === 'Limit')
    .some((l) => nodes(l).some((n) => n['Node Type'] === 'Sort'));
}

function describePlan(plan: PlanNode): string {
  return nodes(plan)
    .map((n) => `${n['Node Type']}${n['Index Name'] ? ` ${n['Index Name']}` : ''}`)
    .join(' > ');
}

describe('the claims plan an ordered index walk on a table with no statistics (real Postgres)', () => {
  let db: TestDatabase;
  let pool: pg.Pool;

  before(async () => {
    db = await createTestDatabase();
    pool = new pg.Pool({ connectionString: db.url, max: 2 });
    // Autovacuum would analyse the tables behind the test's back.
    await pool.query(`ALTER TABLE outbox SET (autovacuum_enabled = false)`);
    await pool.query(`ALTER TABLE payout SET (autovacuum_enabled = false)`);
    await pool.query(`ALTER TABLE batch SET (autovacuum_enabled = false)`);
    // A backlog: 30,000 pending events over 10,000 keys, 20,000 payouts waiting to be claimed.
    await pool.query(`INSERT INTO outbox (message_key, event_id, event_type, topic, payload)
                      SELECT 'k' || (g % 10000), 'e' || g, 't', 'events', '{}'::json
                        FROM generate_series(1, 30000) g`);
    await pool.query(`INSERT INTO payout (account_id, transfer_id, kind, request_hash, request, amount)
                      SELECT 'acc', 'tr' || g, 'direct_transfer', 'h', '{}'::jsonb, 10
                        FROM generate_series(1, 20000) g`);
    // The account's history: 20,000 payouts and 2,000 batches it was paid, none waiting.
    await pool.query(`INSERT INTO payout (account_id, transfer_id, kind, request_hash, request, amount, status)
                      SELECT 'acc', 'old' || g, 'direct_transfer', 'h', '{}'::jsonb, 10, 'SUCCESS'
                        FROM generate_series(1, 20000) g`);
    await pool.query(`INSERT INTO batch (account_id, batch_transfer_id, batch_format, request_hash, total_amount, entry_count, status)
                      SELECT 'acc', 'b' || g, 'BANK_ACCOUNT', 'h', 10, 1, CASE WHEN g % 10 = 0 THEN 'RECEIVED' ELSE 'COMPLETED' END
                        FROM generate_series(1, 2000) g`);
    const { rows } = await pool.query<{ relname: string; reltuples: number }>(
      `SELECT relname, reltuples FROM pg_class WHERE relname IN ('outbox', 'payout', 'batch')`,
    );
    for (const r of rows) assert.equal(r.reltuples, -1, `${r.relname} has never been analysed`);
  });
  after(async () => {
    pool?.on('error', () => undefined);
    await pool?.end();
    await db?.drop();
  });

  for (const mode of ['custom', 'generic'] as const) {
    it(`the outbox head query reads outbox_pending_id_idx in order, no sort (${mode} plan)`, async () => {
      const c = await pool.connect();
      try {
        await c.query(`SET plan_cache_mode = force_${mode}_plan`);
        const plans: PlanNode[] = [];
        await new OutboxRepository().claimHeads(explaining(c, mode === 'generic', plans), 500);
        const plan = plans[0]!;
        const all = nodes(plan);
        assert.ok(
          all.some((n) => n['Node Type'] === 'Index Scan' && n['Index Name'] === 'outbox_pending_id_idx'),
          describePlan(plan),
        );
        assert.ok(!sortsBeforeLimit(plan), describePlan(plan));
        assert.ok(!all.some((n) => /Bitmap|Seq Scan/.test(n['Node Type'])), describePlan(plan));
      } finally {
        await c.query('RESET plan_cache_mode');
        c.release();
      }
    });

    it(`the executor's claim reads payout_received_idx in order, no sort (${mode} plan)`, async () => {
      const c = await pool.connect();
      try {
        await c.query(`SET plan_cache_mode = force_${mode}_plan`);
        const plans: PlanNode[] = [];
        await new PayoutMoves().claimForSubmission(
          explaining(c, mode === 'generic', plans),
          'w',
          60_000,
          500,
        );
        const plan = plans[0]!;
        const all = nodes(plan);
        assert.ok(
          all.some((n) => n['Node Type'] === 'Index Scan' && n['Index Name'] === 'payout_received_idx'),
          describePlan(plan),
        );
        assert.ok(!sortsBeforeLimit(plan), describePlan(plan));
        assert.ok(
          !all.some((n) => /Bitmap|Seq Scan/.test(n['Node Type']) && n['Relation Name'] === 'payout'),
          describePlan(plan),
        );
      } finally {
        await c.query('RESET plan_cache_mode');
        c.release();
      }
    });
  }

  // A funds round (ADR 0027) of a held account with a long history: its new and held payouts
  // (batches) through their own indexes in order, and its sends by id, never the account's rows
  // through payout_identity (measured in the bench: every payout of the account at each round).
  for (const mode of ['custom', 'generic'] as const)
    for (const how of ['bound', 'exact'] as const)
      it(`a funds round reads its candidates through their indexes in order, never the account's history (${how}, ${mode} plan)`, async () => {
        const c = await pool.connect();
        try {
          await c.query(`SET plan_cache_mode = force_${mode}_plan`);
          const plans: PlanNode[] = [];
          const ex = explaining(c, mode === 'generic', plans);
          // The explaining client answers no rows: the reads complain, the plans are taken.
          await new PayoutMoves().fundsRound(ex, 'acc', 26, how, 0n).catch(() => undefined);
          await new BatchMoves().fundsRound(ex, 'acc', 26, how, 0n).catch(() => undefined);
          assert.equal(plans.length, 2);
          for (const [plan, table] of [
            [plans[0]!, 'payout'],
            [plans[1]!, 'batch'],
          ] as const) {
            const all = nodes(plan);
            for (const index of [`${table}_received_account_idx`, `${table}_held_for_funds_idx`])
              assert.ok(
                all.some((n) => n['Node Type'] === 'Index Scan' && n['Index Name'] === index),
                `${index}: ${describePlan(plan)}`,
              );
            assert.ok(!sortsBeforeLimit(plan), describePlan(plan));
            // The exact sum may read what was taken since the reading through a bitmap of its
            // index; the bound reads no payout but the candidates.
            const scans = how === 'bound' ? /Bitmap|Seq Scan/ : /Seq Scan/;
            assert.ok(
              !all.some(
                (n) =>
                  n['Index Name'] === `${table}_identity` ||
                  (scans.test(n['Node Type']) && n['Relation Name'] === table),
              ),
              describePlan(plan),
            );
          }
        } finally {
          await c.query('RESET plan_cache_mode');
          c.release();
        }
      });

  // Sent unnamed, so planned with its values each time (a custom plan): with the ids' array
  // unknown, a generic plan would hash the table.
  it("a funds round's send reaches its payouts and batches by id (custom plan)", async () => {
    const c = await pool.connect();
    try {
      await c.query(`SET plan_cache_mode = force_custom_plan`);
      const plans: PlanNode[] = [];
      // A guarded send's one row when nothing moved.
      const ex = explaining(c, false, plans, [{ f_guarded: false, f_sent_total: null, id: null }]);
      // A round's worth of payouts: the executor's free slots (EXECUTOR_CONCURRENCY, 128 in the bench).
      const sends = Array.from({ length: 128 }, (_, i) => ({
        id: String(i + 1),
        version: 1,
        status: 'RECEIVED' as const,
      }));
      const guard = { sentTotal: '0.00', readAt: '2026-11-28 00:00:00+00' };
      await new PayoutMoves().sendFunded(ex, 'acc', 'w', 60_000, sends, guard, 0n);
      // The batch worker's round sends a couple (BATCH perRound).
      await new BatchMoves().sendFunded(ex, 'acc', 'w', 60_000, sends.slice(0, 2), guard, 0n);
      for (const [plan, table] of [
        [plans[0]!, 'payout'],
        [plans[1]!, 'batch'],
      ] as const) {
        const all = nodes(plan);
        // By id: probes of the primary key (one each, or a bitmap of them), not a pass over the table.
        assert.ok(
          all.some((n) => /Index Scan/.test(n['Node Type']) && n['Index Name'] === `${table}_pkey`),
          describePlan(plan),
        );
        assert.ok(
          !all.some(
            (n) =>
              n['Index Name'] === `${table}_identity` ||
              (n['Node Type'] === 'Seq Scan' && n['Relation Name'] === table),
          ),
          describePlan(plan),
        );
      }
    } finally {
      await c.query('RESET plan_cache_mode');
      c.release();
    }
  });

  // The ledger gauges are read on every scrape (5 s cache): a count over the whole payout table
  // took 3.1-4.7 s at 10 million payouts (bench:growth). The live statuses each have an index;
  // the settled ones are counted apart, rarely (settledCounts).
  it('the ledger gauges count the live payouts through their indexes, no scan of the table', async () => {
    const c = await pool.connect();
    try {
      const plans: PlanNode[] = [];
      await new LedgerStatsRepository().snapshot(explaining(c, false, plans));
      const plan = plans[0]!;
      assert.ok(
        !nodes(plan).some((n) => n['Node Type'] === 'Seq Scan' && n['Relation Name'] === 'payout'),
        describePlan(plan),
      );
    } finally {
      c.release();
    }
  });
});
