import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { LedgerStatsRepository } from '#ledger';
import { OutboxRepository } from '#outbox';
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
function explaining(client: pg.PoolClient, generic: boolean, plans: PlanNode[]): pg.PoolClient {
  const query = async (arg: string | pg.QueryConfig, values?: unknown[]): Promise<{ rows: [] }> => {
    const text = typeof arg === 'string' ? arg : arg.text;
    const params = (typeof arg === 'string' ? values : arg.values) ?? [];
    type Explained = { 'QUERY PLAN': [{ Plan: PlanNode }] };
    let rows: Explained[];
    if (generic) {
      await client.query(`PREPARE plan_probe AS ${text}`);
      try {
        const args = params.map((v) => client.escapeLiteral(String(v))).join(', ');
        ({ rows } = await client.query<Explained>(`EXPLAIN (FORMAT JSON) EXECUTE plan_probe(${args})`));
      } finally {
        await client.query('DEALLOCATE plan_probe');
      }
    } else {
      ({ rows } = await client.query<Explained>(`EXPLAIN (FORMAT JSON) ${text}`, params));
    }
    plans.push(rows[0]!['QUERY PLAN'][0].Plan);
    return { rows: [] };
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
    // A backlog: 30,000 pending events over 10,000 keys, 20,000 payouts waiting to be claimed.
    await pool.query(`INSERT INTO outbox (message_key, event_id, event_type, topic, payload)
                      SELECT 'k' || (g % 10000), 'e' || g, 't', 'events', '{}'::json
                        FROM generate_series(1, 30000) g`);
    await pool.query(`INSERT INTO payout (account_id, transfer_id, kind, request_hash, request, amount)
                      SELECT 'acc', 'tr' || g, 'direct_transfer', 'h', '{}'::jsonb, 10
                        FROM generate_series(1, 20000) g`);
    const { rows } = await pool.query<{ relname: string; reltuples: number }>(
      `SELECT relname, reltuples FROM pg_class WHERE relname IN ('outbox', 'payout')`,
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
