import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { revertLastMigration, runMigrations } from '#database';
import { createTestDatabase, type TestDatabase } from '#test-support';

const LEDGER_TABLES = [
  'approval_daily_sum',
  'approval_decision',
  'approval_hold',
  'balance_reading',
  'batch',
  'batch_item',
  'beneficiary_change',
  'beneficiary_proposal',
  'dead_letter',
  'operator_action',
  'operator_login',
  'operator_session',
  'operator_sign_in',
  'ops_token',
  'outbox',
  'payout',
  'payout_contradiction',
  'payout_proposal',
  'provider_rate_budget',
  'provider_webhook',
  'query_answer',
  'state_history',
  'transfer_identity',
  'withdrawal_quota',
];

async function tables(url: string): Promise<string[]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const { rows } = await c.query<{ table_name: string }>(
      `SELECT table_name FROM information_schema.tables
        WHERE table_schema = 'public' AND table_name <> 'schema_migrations' AND table_type = 'BASE TABLE'
          AND NOT EXISTS (SELECT 1 FROM pg_inherits i WHERE i.inhrelid = format('%I', table_name)::regclass)
        ORDER BY table_name`,
    );
    return rows.map((r) => r.table_name);
  } finally {
    await c.end();
  }
}

describe('migrations', () => {
  let db: TestDatabase;
  before(async () => {
    db = await createTestDatabase({ empty: true });
  });
  after(async () => {
    await db.drop();
  });

  it('apply to an empty database, are idempotent, revert, and apply again', async () => {
    assert.deepEqual(await tables(db.url), []);
    const first = await runMigrations(db.url);
    assert.ok(first.applied.length >= 1);
    assert.deepEqual(await tables(db.url), LEDGER_TABLES);

    const second = await runMigrations(db.url);
    assert.deepEqual(second.applied, [], 'a second run applies nothing');

    // Newest first, one at a time: every migration's down() must run.
    for (let i = 0; i < first.applied.length; i += 1) await revertLastMigration(db.url);
    assert.deepEqual(await tables(db.url), []);

    await runMigrations(db.url);
    assert.deepEqual(await tables(db.url), LEDGER_TABLES);
  });

  it('store money as NUMERIC and refuse a non-positive amount', async () => {
    const c = new pg.Client({ connectionString: db.url });
    await c.connect();
    try {
      const { rows } = await c.query<{ data_type: string }>(
        `SELECT data_type FROM information_schema.columns WHERE table_name = 'payout' AND column_name = 'amount'`,
      );
      assert.equal(rows[0]?.data_type, 'numeric');
      await assert.rejects(
        c.query(
          `INSERT INTO payout (account_id, transfer_id, kind, request_hash, request, amount)
           VALUES ('a', 't', 'standard_transfer', 'h', '{}', 0)`,
        ),
        /payout_amount_check/,
      );
      const ok = await c.query<{ amount: string }>(
        `INSERT INTO payout (account_id, transfer_id, kind, request_hash, request, amount)
         VALUES ('a', 't1', 'standard_transfer', 'h', '{}', 1234567.89) RETURNING amount`,
      );
      assert.equal(ok.rows[0]?.amount, '1234567.89');
    } finally {
      await c.end();
    }
  });
});
