import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Issue 29, defect 2: one namespace of transfer ids per account, as the provider has. A single
 * payout is unique on (account_id, transfer_id) and a batch entry only within its batch, but the
 * provider knows one transfer per id: a single payout X and a batch entry X of one account are the
 * same transfer to it ("already exists", one status, one webhook stream).
 *
 * `transfer_identity` holds every (account_id, transfer_id) admitted, with its holder: a single
 * payout (`batch_id` NULL) or an entry of the batch `batch_id`. The intake inserts into it in the
 * same transaction (the same statement, for payouts) as the payout or batch, and admits only what
 * it could insert: the primary key makes a second holder impossible across instances (the second
 * transaction waits on the first's key, then finds it taken). The rows are never updated nor
 * deleted: an id once used stays used.
 *
 * Cost on the hot path: one more heap tuple and one more index entry (this primary key) per
 * payout, written once at intake and never again (state changes do not touch it). Accepted:
 * a payout already writes several entries per state change (docs/BENCHMARKS.md).
 *
 * Existing data: the backfill gives each (account_id, transfer_id) to its earliest holder
 * (created_at, a single payout before a batch entry at the same time). Ids already held twice
 * before this migration (a payout and an entry, or entries of two batches) are kept as they are:
 * nothing is moved or refused, the migration cannot fail on them. Their later holders are not in
 * the registry; webhooks bind to the registered holder, and the status check compares what the
 * provider holds with the row (docs/RELIABILITY.md, "One transfer id, one transfer"). To list
 * them:
 *
 *   SELECT b.account_id, i.transfer_id, b.batch_transfer_id
 *     FROM batch_item i JOIN batch b ON b.id = i.batch_id
 *     JOIN transfer_identity t ON (t.account_id, t.transfer_id) = (b.account_id, i.transfer_id)
 *    WHERE t.batch_id IS DISTINCT FROM b.id;
 */
export class TransferIdentity1764630000000 implements MigrationInterface {
  name = 'TransferIdentity1764630000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE transfer_identity (
        account_id   TEXT        NOT NULL,
        transfer_id  TEXT        NOT NULL,
        -- NULL: a single payout; otherwise the batch one of whose entries holds the id.
        batch_id     BIGINT,
        created_at   TIMESTAMPTZ NOT NULL DEFAULT now(),
        PRIMARY KEY (account_id, transfer_id)
      )`);
    await q.query(`
      INSERT INTO transfer_identity (account_id, transfer_id, batch_id, created_at)
      SELECT DISTINCT ON (account_id, transfer_id) account_id, transfer_id, batch_id, created_at
        FROM (SELECT account_id, transfer_id, NULL::bigint AS batch_id, created_at FROM payout
              UNION ALL
              SELECT b.account_id, i.transfer_id, b.id, b.created_at
                FROM batch_item i JOIN batch b ON b.id = i.batch_id) AS held
       ORDER BY account_id, transfer_id, created_at, batch_id NULLS FIRST`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS transfer_identity`);
  }
}
