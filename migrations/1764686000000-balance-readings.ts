import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Issue 32, item 1: the provider's balance of each account as last read, one row per account, so
 * every instance, the ops API and the funds gauges see the same reading. Not a payout: nothing here
 * is read by the ledger.
 *
 * `available` and `ledger` are the provider's available and ledger balance (exact, 2 places; a
 * ledger may be negative), `read_at` when they were asked (Postgres's clock, before the call; ADR 0027); all three NULL until a read
 * succeeds, and kept as they were when a later read fails. `next_read_at` is the claim: the
 * instance whose UPDATE moves it forward reads the account (one read per interval whatever the
 * number of instances); a provider notice sets it to now(). `failures` counts the reads that
 * failed since the last success, `failed_at` and `failure` (an outcome class, never the provider's
 * text) say the last one.
 */
export class BalanceReadings1764686000000 implements MigrationInterface {
  name = 'BalanceReadings1764686000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE balance_reading (
        account_id    TEXT          PRIMARY KEY,
        available     NUMERIC(15,2),
        ledger        NUMERIC(15,2),
        read_at       TIMESTAMPTZ,
        next_read_at  TIMESTAMPTZ   NOT NULL DEFAULT now(),
        failures      INTEGER       NOT NULL DEFAULT 0,
        failed_at     TIMESTAMPTZ,
        failure       TEXT,
        CHECK ((available IS NULL) = (read_at IS NULL) AND (ledger IS NULL) = (read_at IS NULL))
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS balance_reading`);
  }
}
