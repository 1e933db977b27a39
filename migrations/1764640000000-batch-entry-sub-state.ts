import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Issue 29, batches in the provider's long waits.
 * - `batch_item.sub_state`: where an entry that is not settled waits at the provider (as
 *   `payout.sub_state`, migration 1764620000000: queued, approval_pending, approved,
 *   scheduled_next_working_day, sent_to_bank), kept by the batch ledger's entry moves (a new one is
 *   a new version of the entry, cleared on a terminal state) and published in the entry's events.
 *   The batch check schedules a batch by its entries' longest open wait. A nullable column
 *   without a default rewrites nothing; the CHECK is validated over an all-NULL column.
 * - The batch claim index gains REQUIRES_ATTENTION: a batch handed to a person is still asked
 *   (the attention watch), so it keeps a `next_check_at` while the watch lasts. Such rows are
 *   few; see 1764500000001 for building an index concurrently beforehand on a big table.
 */
export class BatchEntrySubState1764640000000 implements MigrationInterface {
  name = 'BatchEntrySubState1764640000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE batch_item ADD COLUMN sub_state TEXT
        CONSTRAINT batch_item_sub_state_check CHECK (sub_state IN (
          'queued', 'approval_pending', 'approved', 'scheduled_next_working_day', 'sent_to_bank'))`);
    await q.query(`DROP INDEX IF EXISTS batch_due_check_idx`);
    await q.query(`
      CREATE INDEX batch_due_check_idx ON batch (next_check_at)
        WHERE status IN ('SUBMITTING', 'PROCESSING', 'UNKNOWN', 'COMPLETED', 'REQUIRES_ATTENTION')
          AND next_check_at IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`UPDATE batch SET next_check_at = NULL WHERE status = 'REQUIRES_ATTENTION'`);
    await q.query(`DROP INDEX IF EXISTS batch_due_check_idx`);
    await q.query(`
      CREATE INDEX batch_due_check_idx ON batch (next_check_at)
        WHERE status IN ('SUBMITTING', 'PROCESSING', 'UNKNOWN', 'COMPLETED') AND next_check_at IS NOT NULL`);
    await q.query(`ALTER TABLE batch_item DROP COLUMN IF EXISTS sub_state`);
  }
}
