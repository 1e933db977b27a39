import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * The provider's rate limit is per account, however many instances send on it: one row per
 * (account, endpoint) that every instance reserves send slots from (RateBudgetRepository).
 *
 * - `tat`: the next free slot (GCRA's theoretical arrival time), on Postgres's clock.
 * - `paused_until`: no slot before it (a 429 any instance received).
 * - `granted_from`, `granted`, `clock`: the last reservation (its first slot, how many, when),
 *   which the reserving statement returns; `reservations` counts them.
 */
export class RateBudget1764100000000 implements MigrationInterface {
  name = 'RateBudget1764100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE provider_rate_budget (
        account_id   TEXT        NOT NULL,
        endpoint     TEXT        NOT NULL,
        tat          TIMESTAMPTZ NOT NULL DEFAULT '-infinity',
        paused_until TIMESTAMPTZ NOT NULL DEFAULT '-infinity',
        granted_from TIMESTAMPTZ NOT NULL DEFAULT '-infinity',
        granted      INTEGER     NOT NULL DEFAULT 0,
        clock        TIMESTAMPTZ NOT NULL DEFAULT now(),
        reservations BIGINT      NOT NULL DEFAULT 0,
        PRIMARY KEY (account_id, endpoint)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS provider_rate_budget`);
  }
}
