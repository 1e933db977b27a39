import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * The reconciler's due-check claim (`payout.claimDueChecks`) reads its rows by `next_check_at`
 * again (issue 23, found by bench/growth.bench.ts). Since the watch of FAILED "not received"
 * payouts (issue 21) it also claims FAILED and REJECTED rows, which `payout_due_check_idx`
 * (SUBMITTING, PENDING, UNKNOWN, SUCCESS) does not cover: the planner could not use it, and read
 * every SUCCESS and FAILED row by status and sorted them, or the whole table, at every poll
 * (36 ms at 200,000 payouts; seconds at 10 million). This index has the claim's own status list.
 * `payout_due_check_idx` is left alone here (the index set of `payout` is being revised for issue
 * 23): nothing reads it any more.
 *
 * On a big table the build reads the whole table under a lock that blocks writes (rows with a
 * `next_check_at` are few, so the index is small): an operator may build it beforehand with
 * `CREATE INDEX CONCURRENTLY payout_due_check_claim_idx ...` (the same definition), which this
 * migration then keeps.
 */
export class DueCheckIndex1764500000001 implements MigrationInterface {
  name = 'DueCheckIndex1764500000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE INDEX IF NOT EXISTS payout_due_check_claim_idx ON payout (next_check_at)
        WHERE status IN ('SUBMITTING', 'PENDING', 'UNKNOWN', 'SUCCESS', 'FAILED', 'REJECTED')
          AND next_check_at IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS payout_due_check_claim_idx`);
  }
}
