import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Issue 32, item 3, hold instead of bounce (ADR 0027). For an account with holding on
 * (FUNDS_HOLD), a payout or batch that does not fit the provider's available balance waits in
 * HELD_FOR_FUNDS (the status CHECKs below) instead of being sent to bounce.
 *
 * - `sent_at`: when the funds-aware claim moved it to SUBMITTING. Set only for accounts with
 *   holding on: it tells which sent money a balance reading cannot include yet (sent after it).
 * - `held_since`: when it first entered HELD_FOR_FUNDS (kept after it leaves): the maximum hold
 *   is counted from it.
 *
 * Cost on the hot path: none for an account with holding off (nothing here is written; the
 * partial indexes have no entry for its rows). Adding nullable columns rewrites nothing.
 */
export class FundsHolds1764689000000 implements MigrationInterface {
  name = 'FundsHolds1764689000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE payout DROP CONSTRAINT payout_status_check`);
    await q.query(`
      ALTER TABLE payout ADD CONSTRAINT payout_status_check CHECK (status IN (
        'RECEIVED', 'AWAITING_APPROVAL', 'HELD_FOR_FUNDS', 'SUBMITTING', 'PENDING', 'UNKNOWN', 'SUCCESS',
        'FAILED', 'REJECTED', 'REVERSED', 'REQUIRES_ATTENTION'))`);
    await q.query(`ALTER TABLE batch DROP CONSTRAINT batch_status_check`);
    await q.query(`
      ALTER TABLE batch ADD CONSTRAINT batch_status_check CHECK (status IN (
        'RECEIVED', 'AWAITING_APPROVAL', 'HELD_FOR_FUNDS', 'SUBMITTING', 'PROCESSING', 'UNKNOWN',
        'COMPLETED', 'FAILED', 'REJECTED', 'REQUIRES_ATTENTION'))`);
    for (const table of ['payout', 'batch']) {
      await q.query(`ALTER TABLE ${table} ADD COLUMN sent_at TIMESTAMPTZ, ADD COLUMN held_since TIMESTAMPTZ`);
      // The held ones of an account, oldest first (the claim's candidates, the funds view).
      await q.query(
        `CREATE INDEX ${table}_held_for_funds_idx ON ${table} (account_id, created_at) WHERE status = 'HELD_FOR_FUNDS'`,
      );
      // What a held account sent after a reading (the committed sum).
      await q.query(
        `CREATE INDEX ${table}_sent_at_idx ON ${table} (account_id, sent_at) WHERE sent_at IS NOT NULL`,
      );
    }
  }

  async down(q: QueryRunner): Promise<void> {
    // Held rows end REJECTED (nothing was sent), so the old CHECKs hold.
    for (const table of ['payout', 'batch']) {
      await q.query(
        `UPDATE ${table} SET status = 'REJECTED', reason = 'funds_hold_expired', version = version + 1,
                updated_at = now() WHERE status = 'HELD_FOR_FUNDS'`,
      );
      await q.query(`DROP INDEX ${table}_sent_at_idx`);
      await q.query(`DROP INDEX ${table}_held_for_funds_idx`);
      await q.query(`ALTER TABLE ${table} DROP COLUMN sent_at, DROP COLUMN held_since`);
    }
    await q.query(`ALTER TABLE payout DROP CONSTRAINT payout_status_check`);
    await q.query(`
      ALTER TABLE payout ADD CONSTRAINT payout_status_check CHECK (status IN (
        'RECEIVED', 'AWAITING_APPROVAL', 'SUBMITTING', 'PENDING', 'UNKNOWN', 'SUCCESS', 'FAILED',
        'REJECTED', 'REVERSED', 'REQUIRES_ATTENTION'))`);
    await q.query(`ALTER TABLE batch DROP CONSTRAINT batch_status_check`);
    await q.query(`
      ALTER TABLE batch ADD CONSTRAINT batch_status_check CHECK (status IN (
        'RECEIVED', 'AWAITING_APPROVAL', 'SUBMITTING', 'PROCESSING', 'UNKNOWN', 'COMPLETED',
        'FAILED', 'REJECTED', 'REQUIRES_ATTENTION'))`);
  }
}
