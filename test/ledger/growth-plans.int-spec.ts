import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import pg from 'pg';
import { createTestDatabase, type TestDatabase } from '#test-support';
import { generateSqlFiles } from '../../scripts/sql-files.js';

const root = resolve(import.meta.dirname, '../../..');

// Statements that run again and again must read an index, whatever the statistics say: on a
// ledger of millions of rows a sequential scan per poll is seconds of CPU (bench/growth.bench.ts).
// With sequential scans disabled, the planner still picks one when no index can serve the
// statement: that is what these tests catch (a status list and its partial index drifting apart).
describe('hot statements have an index to read (real Postgres)', () => {
  let db: TestDatabase;
  let client: pg.Client;
  const sql = new Map<string, string>();
  before(async () => {
    db = await createTestDatabase();
    client = new pg.Client({ connectionString: db.url });
    await client.connect();
    for (const f of await generateSqlFiles(root)) for (const q of f.queries) sql.set(q.tag, q.sql);
    await client.query('SET enable_seqscan = off');
  });
  after(async () => {
    await client?.end();
    await db?.drop();
  });

  async function plan(tag: string, params: unknown[]): Promise<string> {
    const text = sql.get(tag);
    assert.ok(text, `no query tagged ${tag}`);
    const { rows } = await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${text}`, params);
    return rows.map((r) => r['QUERY PLAN']).join('\n');
  }

  it("the reconciler's due-check claim (payout.claimDueChecks)", async () => {
    const p = await plan('payout.claimDueChecks', ['owner', 30_000, 100]);
    // Due rows found by their time (not every SUCCESS and FAILED row by status, then sorted).
    assert.match(p, /Index Cond: \(next_check_at <= now\(\)\)/, p);
  });

  it("the executor's claim (payout.claimForSubmission)", async () => {
    const p = await plan('payout.claimForSubmission', ['owner', 30_000, 100]);
    assert.doesNotMatch(p, /Seq Scan on payout/, p);
  });

  it('a timeline (history.ofSubject) reads only the partitions from its start', async () => {
    const p = await plan('history.ofSubject', [['payout'], '1', new Date()]);
    assert.doesNotMatch(p, /Seq Scan/, p);
    const months = new Set(p.match(/state_history_\d{4}_\d{2}/g));
    assert.ok(months.size <= 4, p);
  });
});
