import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * The provider API generation a payout or batch was sent on (issue 22, ADR 0019). Set at intake
 * from the account's generation at that moment and never changed: every send, re-send and check
 * uses it, so an account switched from v1 to v2 with payouts in flight checks each on its own.
 */
export class ProviderApi1764440000000 implements MigrationInterface {
  name = 'ProviderApi1764440000000';

  async up(q: QueryRunner): Promise<void> {
    for (const table of ['payout', 'batch']) {
      await q.query(`
        ALTER TABLE ${table}
          ADD COLUMN provider_api text NOT NULL DEFAULT 'v1' CHECK (provider_api IN ('v1', 'v2'))`);
    }
  }

  async down(q: QueryRunner): Promise<void> {
    for (const table of ['payout', 'batch']) await q.query(`ALTER TABLE ${table} DROP COLUMN provider_api`);
  }
}
