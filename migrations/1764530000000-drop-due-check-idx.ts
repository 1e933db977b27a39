import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Issue 23: one index entry fewer per payout move. `payout_due_check_idx` (SUBMITTING, PENDING,
 * UNKNOWN, SUCCESS with a `next_check_at`) has had no reader since the failed watch (issue 21)
 * added FAILED and REJECTED to the reconciler's claim: `payout_due_check_claim_idx`
 * (1764500000001) serves that claim, and every payout on the happy path (SUBMITTING with its lease,
 * SUCCESS under the reversal watch) was written into both. Status updates are never HOT, so each
 * of those row versions cost an entry in each.
 */
export class DropDueCheckIdx1764530000000 implements MigrationInterface {
  name = 'DropDueCheckIdx1764530000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS payout_due_check_idx`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE INDEX IF NOT EXISTS payout_due_check_idx ON payout (next_check_at)
        WHERE status IN ('SUBMITTING', 'PENDING', 'UNKNOWN', 'SUCCESS') AND next_check_at IS NOT NULL`);
  }
}
