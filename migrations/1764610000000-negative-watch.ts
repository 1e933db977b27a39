import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Issue 29, defects 3 to 5.
 * - `payout.maybe_reached`: whether any attempt so far may have reached the provider (its outcome
 *   was not certainly "not processed"). Set by the ledger call that records such an attempt (or
 *   re-sends after one), never cleared. A refused re-send with it false is a first-send refusal;
 *   with it true it goes to a person within the settle window. NOT NULL DEFAULT false: a
 *   constant default, so adding it rewrites nothing (PostgreSQL 11+). Rows written before this
 *   change count as not reached; one in flight now keeps its old path (refused_on_resend).
 * - `payout.resend_refused_at`: when the provider refused a re-send while an earlier attempt may
 *   have reached it. Kept through a reopen (the reason text is not), so a later "not found" never
 *   re-sends it. Nullable, no default.
 * - The due-check claim index gains REVERSED: every negative state is watched (the failed watch).
 *   Rows with a `next_check_at` are few, so the index stays small; see 1764500000001 for building
 *   it concurrently beforehand on a big table.
 * - Batch entries are watched too: a COMPLETED batch with a negative entry keeps a
 *   `next_check_at` (the failed watch), so the batch claim index gains COMPLETED.
 * - `payout_contradiction` records contradictions of batch entries as well: `batch_id` names the
 *   batch (and `payout_id` is null), `transfer_id` the entry, `version` the entry's; one row per
 *   (batch, entry, version, observed status), as for payouts. Exactly one of the two ids is set.
 */
export class NegativeWatch1764610000000 implements MigrationInterface {
  name = 'NegativeWatch1764610000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE payout ADD COLUMN maybe_reached BOOLEAN NOT NULL DEFAULT false`);
    await q.query(`ALTER TABLE payout ADD COLUMN resend_refused_at TIMESTAMPTZ`);
    await q.query(`DROP INDEX IF EXISTS payout_due_check_claim_idx`);
    await q.query(`
      CREATE INDEX payout_due_check_claim_idx ON payout (next_check_at)
        WHERE status IN ('SUBMITTING', 'PENDING', 'UNKNOWN', 'SUCCESS', 'FAILED', 'REJECTED', 'REVERSED')
          AND next_check_at IS NOT NULL`);
    await q.query(`DROP INDEX IF EXISTS batch_due_check_idx`);
    await q.query(`
      CREATE INDEX batch_due_check_idx ON batch (next_check_at)
        WHERE status IN ('SUBMITTING', 'PROCESSING', 'UNKNOWN', 'COMPLETED') AND next_check_at IS NOT NULL`);
    await q.query(`ALTER TABLE payout_contradiction ALTER COLUMN payout_id DROP NOT NULL`);
    await q.query(`ALTER TABLE payout_contradiction ADD COLUMN batch_id BIGINT REFERENCES batch (id)`);
    await q.query(
      `ALTER TABLE payout_contradiction ADD CONSTRAINT payout_contradiction_subject
         CHECK (num_nonnulls(payout_id, batch_id) = 1)`,
    );
    await q.query(
      `ALTER TABLE payout_contradiction ADD CONSTRAINT payout_contradiction_entry_once
         UNIQUE (batch_id, transfer_id, version, observed)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM payout_contradiction WHERE batch_id IS NOT NULL`);
    await q.query(
      `ALTER TABLE payout_contradiction DROP CONSTRAINT IF EXISTS payout_contradiction_entry_once`,
    );
    await q.query(`ALTER TABLE payout_contradiction DROP CONSTRAINT IF EXISTS payout_contradiction_subject`);
    await q.query(`ALTER TABLE payout_contradiction DROP COLUMN IF EXISTS batch_id`);
    await q.query(`ALTER TABLE payout_contradiction ALTER COLUMN payout_id SET NOT NULL`);
    await q.query(`DROP INDEX IF EXISTS batch_due_check_idx`);
    await q.query(`
      CREATE INDEX batch_due_check_idx ON batch (next_check_at)
        WHERE status IN ('SUBMITTING', 'PROCESSING', 'UNKNOWN')`);
    await q.query(`DROP INDEX IF EXISTS payout_due_check_claim_idx`);
    await q.query(`
      CREATE INDEX payout_due_check_claim_idx ON payout (next_check_at)
        WHERE status IN ('SUBMITTING', 'PENDING', 'UNKNOWN', 'SUCCESS', 'FAILED', 'REJECTED')
          AND next_check_at IS NOT NULL`);
    await q.query(`ALTER TABLE payout DROP COLUMN IF EXISTS resend_refused_at`);
    await q.query(`ALTER TABLE payout DROP COLUMN IF EXISTS maybe_reached`);
  }
}
