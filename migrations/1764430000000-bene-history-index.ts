import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Beneficiary history on v2 accounts is read from the ledger (BeneHistoryRepository): payouts of
 * one account to one beneId, newest first, one page at a time. Partial: only payouts to a
 * registered beneficiary carry `request.beneId`, and the query's equality implies NOT NULL.
 */
export class BeneHistoryIndex1764430000000 implements MigrationInterface {
  name = 'BeneHistoryIndex1764430000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE INDEX payout_bene_history_idx ON payout (account_id, (request->>'beneId'), created_at DESC, id DESC)
         WHERE request->>'beneId' IS NOT NULL`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS payout_bene_history_idx`);
  }
}
