import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * The reversal watch: a SUCCESS payout of a kind with a status endpoint is checked again a few
 * times (REVERSAL_WATCH_SCHEDULE), because the bank may reverse it later. Those rows join the
 * reconciler's queue while `next_check_at` is set; the watch ends by clearing it, so finished
 * SUCCESS rows never sit in the index.
 */
export class ReversalWatch1763800000000 implements MigrationInterface {
  name = 'ReversalWatch1763800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX payout_due_check_idx`);
    await q.query(`
      CREATE INDEX payout_due_check_idx ON payout (next_check_at)
        WHERE status IN ('SUBMITTING', 'PENDING', 'UNKNOWN', 'SUCCESS') AND next_check_at IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX payout_due_check_idx`);
    await q.query(`
      CREATE INDEX payout_due_check_idx ON payout (next_check_at)
        WHERE status IN ('SUBMITTING', 'PENDING', 'UNKNOWN')`);
  }
}
