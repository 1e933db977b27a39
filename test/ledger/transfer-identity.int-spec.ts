import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { type QueryRunner } from 'typeorm';
import { TransferIdentity1764630000000 } from '../../migrations/1764630000000-transfer-identity.js';
import { createTestDatabase, type TestDatabase } from '#test-support';

// The migration of the one namespace of transfer ids (issue 29): existing data is backfilled, and
// ids already held twice are kept as they are (the earliest holder is registered), never a failure.
describe('migration 1764630000000: transfer_identity backfill', () => {
  let db: TestDatabase;
  let pool: pg.Pool;
  before(async () => {
    db = await createTestDatabase();
    pool = new pg.Pool({ connectionString: db.url, max: 2 });
  });
  after(async () => {
    await pool?.end();
    await db?.drop();
  });

  const runner = { query: (sql: string) => pool.query(sql) } as unknown as QueryRunner;

  it('registers every payout and entry; an id held twice goes to its earliest holder and both rows stay', async () => {
    const migration = new TransferIdentity1764630000000();
    await migration.down(runner);
    // Before the migration: a payout X, then a batch with entries X and Y; a later batch reusing Y.
    await pool.query(`
      INSERT INTO payout (account_id, transfer_id, kind, request_hash, request, amount, created_at)
      VALUES ('acc', 'mx', 'standard_transfer', 'h', '{}', 10, now() - interval '3 days'),
             ('acc', 'solo', 'standard_transfer', 'h', '{}', 10, now() - interval '3 days'),
             ('other', 'my', 'standard_transfer', 'h', '{}', 10, now())`);
    const b1 = await pool.query<{ id: string }>(`
      INSERT INTO batch (account_id, batch_transfer_id, batch_format, request_hash, entry_count, total_amount, created_at)
      VALUES ('acc', 'mb1', 'BENEFICIARY_ID', 'h', 2, 10, now() - interval '2 days') RETURNING id`);
    const b2 = await pool.query<{ id: string }>(`
      INSERT INTO batch (account_id, batch_transfer_id, batch_format, request_hash, entry_count, total_amount, created_at)
      VALUES ('acc', 'mb2', 'BENEFICIARY_ID', 'h', 1, 5, now() - interval '1 day') RETURNING id`);
    await pool.query(
      `INSERT INTO batch_item (batch_id, transfer_id, position, amount, entry)
       VALUES ($1, 'mx', 0, 5, '{}'), ($1, 'my', 1, 5, '{}'), ($2, 'my', 0, 5, '{}')`,
      [b1.rows[0]!.id, b2.rows[0]!.id],
    );

    await migration.up(runner);

    const { rows } = await pool.query<{ account_id: string; transfer_id: string; batch_id: string | null }>(
      `SELECT account_id, transfer_id, batch_id::text AS batch_id FROM transfer_identity ORDER BY 1, 2`,
    );
    assert.deepEqual(rows, [
      { account_id: 'acc', transfer_id: 'mx', batch_id: null },
      { account_id: 'acc', transfer_id: 'my', batch_id: String(b1.rows[0]!.id) },
      { account_id: 'acc', transfer_id: 'solo', batch_id: null },
      { account_id: 'other', transfer_id: 'my', batch_id: null },
    ]);
    // Nothing moved or deleted.
    const items = await pool.query(`SELECT 1 FROM batch_item`);
    assert.equal(items.rowCount, 3);
  });
});
