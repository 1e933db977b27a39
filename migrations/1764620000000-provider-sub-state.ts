import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Issue 29, the provider's long waits: where a payout that is not settled waits at the provider
 * (`ProviderSubState` in libs/contracts: queued, approval_pending, approved,
 * scheduled_next_working_day, sent_to_bank), kept on the row by the ledger's moves and published in
 * the payout's events. NULL: the provider said nothing more than pending (v1), or the payout is
 * settled. Adding a nullable column without a default rewrites nothing; the CHECK is validated
 * over an all-NULL column.
 *
 * A payout in REQUIRES_ATTENTION whose kind has a status endpoint is still asked, slowly (the
 * attention watch): its own small index, so the reconciler's claim of those rows never reads the
 * queue (`payout.claimAttentionChecks`). The operations search by sub-state has its own partial
 * index, over the payouts waiting somewhere only.
 */
export class ProviderSubState1764620000000 implements MigrationInterface {
  name = 'ProviderSubState1764620000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE payout ADD COLUMN sub_state TEXT
        CONSTRAINT payout_sub_state_check CHECK (sub_state IN (
          'queued', 'approval_pending', 'approved', 'scheduled_next_working_day', 'sent_to_bank'))`);
    // The operations search by sub-state: only payouts waiting somewhere (few; cleared when settled).
    await q.query(`
      CREATE INDEX IF NOT EXISTS payout_search_sub_state_idx ON payout (sub_state, created_at, id)
        WHERE sub_state IS NOT NULL`);
    await q.query(`
      CREATE INDEX IF NOT EXISTS payout_attention_watch_idx ON payout (next_check_at)
        WHERE status = 'REQUIRES_ATTENTION' AND next_check_at IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS payout_attention_watch_idx`);
    await q.query(`DROP INDEX IF EXISTS payout_search_sub_state_idx`);
    await q.query(`ALTER TABLE payout DROP COLUMN IF EXISTS sub_state`);
  }
}
