import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * ADR 0027, the committed sum made safe: a sent payout (batch) of a held account counts against a
 * balance reading until the provider's first answer that it took the money came before the reading
 * was asked. `taken_at` is when the ledger recorded that first answer (the first move into PENDING
 * or SUCCESS of a payout, PROCESSING or COMPLETED of a batch), written only for rows the
 * funds-aware claim sent (`sent_at` set): nothing for an account with holding off.
 *
 * - Backfill: a sent row that is, or was (its history), in one of those states gets `taken_at =
 *   sent_at`, which keeps the old rule for it; a sent row never answered stays NULL, in doubt, and
 *   counts until it is answered or given back.
 * - Indexes: the in-doubt rows (sent, not answered, not given back; few, they leave on the answer)
 *   and the answered ones by time, per account; the `sent_at` indexes are read by nothing any more.
 */
export class FundsTaken1764692000000 implements MigrationInterface {
  name = 'FundsTaken1764692000000';

  async up(q: QueryRunner): Promise<void> {
    for (const [table, taken] of [
      ['payout', `'PENDING', 'SUCCESS', 'REVERSED'`],
      ['batch', `'PROCESSING', 'COMPLETED'`],
    ] as const) {
      await q.query(`ALTER TABLE ${table} ADD COLUMN taken_at TIMESTAMPTZ`);
      await q.query(
        `UPDATE ${table} t SET taken_at = t.sent_at
          WHERE t.sent_at IS NOT NULL
            AND (t.status IN (${taken})
                 OR EXISTS (SELECT 1 FROM state_history h
                             WHERE h.subject = '${table}' AND h.subject_id = t.id AND h.to_status IN (${taken})))`,
      );
      // Sent and not answered (nor given back): counted whatever the reading's time.
      await q.query(
        `CREATE INDEX ${table}_funds_in_doubt_idx ON ${table} (account_id)
          WHERE sent_at IS NOT NULL AND taken_at IS NULL AND status NOT IN ('FAILED', 'REJECTED', 'REVERSED')`,
      );
      // Answered: counted when the answer came after the reading was asked.
      await q.query(
        `CREATE INDEX ${table}_taken_at_idx ON ${table} (account_id, taken_at) WHERE taken_at IS NOT NULL`,
      );
      await q.query(`DROP INDEX ${table}_sent_at_idx`);
    }
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of ['payout', 'batch']) {
      await q.query(
        `CREATE INDEX ${table}_sent_at_idx ON ${table} (account_id, sent_at) WHERE sent_at IS NOT NULL`,
      );
      await q.query(`DROP INDEX ${table}_taken_at_idx`);
      await q.query(`DROP INDEX ${table}_funds_in_doubt_idx`);
      await q.query(`ALTER TABLE ${table} DROP COLUMN taken_at`);
    }
  }
}
