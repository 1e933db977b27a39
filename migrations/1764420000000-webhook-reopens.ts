import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Webhooks may reopen a REQUIRES_ATTENTION payout only WEBHOOKS_REOPEN_LIMIT times per period
 * (issue 21, finding 5; ADR 0013): the worker counts the kept webhooks of the transfer whose
 * outcome was `reopened`. A partial index holds only those, so it stays tiny.
 */
export class WebhookReopens1764420000000 implements MigrationInterface {
  name = 'WebhookReopens1764420000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE INDEX provider_webhook_reopened_idx ON provider_webhook (account_id, transfer_id, processed_at)
        WHERE outcome = 'reopened'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS provider_webhook_reopened_idx`);
  }
}
