import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * A funds round (ADR 0027) reads the first new payouts (batches) of one held account, oldest first
 * (`payout.fundsRound`, `batch.fundsRound`: `status = 'RECEIVED' AND account_id = $1 ORDER BY
 * created_at LIMIT`). No index served that: `payout_received_idx` is by time across accounts (the
 * other accounts' backlog walked through), and without statistics (a fresh database, a burst after
 * a quiet night) the planner took the account's rows from `payout_identity`, every payout the
 * account ever had, at each round (measured in the bench: 6 ms a round at 10,000 payouts, growing
 * with the table). These indexes are the read's own: the account, then the time, new rows only.
 * Every payout and batch enters one at intake and leaves it when claimed.
 *
 * On a big table the build reads the whole table under a lock that blocks writes (the indexes are
 * small: new rows only): an operator may build them beforehand with `CREATE INDEX CONCURRENTLY`
 * and the same definitions, which this migration then keeps.
 */
export class ReceivedByAccount1764693100000 implements MigrationInterface {
  name = 'ReceivedByAccount1764693100000';

  async up(q: QueryRunner): Promise<void> {
    for (const table of ['payout', 'batch'])
      await q.query(
        `CREATE INDEX IF NOT EXISTS ${table}_received_account_idx ON ${table} (account_id, created_at)
          WHERE status = 'RECEIVED'`,
      );
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of ['payout', 'batch'])
      await q.query(`DROP INDEX IF EXISTS ${table}_received_account_idx`);
  }
}
