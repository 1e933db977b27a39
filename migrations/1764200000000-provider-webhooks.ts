import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Verified provider webhooks (ADR 0013), kept as hints: the HTTP answer is given once the row is
 * committed, and a worker applies or checks them after. `identity` (a hash of the account and
 * the webhook's fields, the signature and delivery timestamp left out) makes a redelivery a
 * no-op. `state`: new (not looked at yet), waiting (its payout could not take it yet: still
 * SUBMITTING, or leased by a check), unmatched (no payout or batch entry has its transferId),
 * done. Inserts announce themselves on `webhook_received`, so a worker in another process starts
 * at once; the poll is the backstop.
 */
export class ProviderWebhooks1764200000000 implements MigrationInterface {
  name = 'ProviderWebhooks1764200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE provider_webhook (
        id bigserial PRIMARY KEY,
        account_id text NOT NULL,
        api_version text NOT NULL CHECK (api_version IN ('v1', 'v2')),
        identity text NOT NULL,
        event text NOT NULL,
        transfer_id text,
        batch_transfer_id text,
        fields jsonb NOT NULL,
        event_time timestamptz,
        received_at timestamptz NOT NULL DEFAULT now(),
        state text NOT NULL DEFAULT 'new' CHECK (state IN ('new', 'waiting', 'unmatched', 'done')),
        outcome text,
        attempts integer NOT NULL DEFAULT 0,
        next_attempt_at timestamptz NOT NULL DEFAULT now(),
        processed_at timestamptz,
        CONSTRAINT provider_webhook_identity_key UNIQUE (account_id, identity)
      )`);
    await q.query(`
      CREATE INDEX provider_webhook_due_idx ON provider_webhook (next_attempt_at)
        WHERE state <> 'done'`);
    await q.query(`
      CREATE INDEX provider_webhook_transfer_idx ON provider_webhook (account_id, transfer_id)
        WHERE state = 'unmatched'`);
    await q.query(
      `CREATE INDEX provider_webhook_processed_idx ON provider_webhook (processed_at) WHERE state = 'done'`,
    );
    // A webhook names a batch entry by its transferId alone.
    await q.query(`CREATE INDEX batch_item_transfer_idx ON batch_item (transfer_id)`);
    await q.query(`
      CREATE FUNCTION provider_webhook_notify() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('webhook_received', '');
        RETURN NULL;
      END $$`);
    await q.query(`
      CREATE TRIGGER provider_webhook_notify AFTER INSERT ON provider_webhook
        FOR EACH STATEMENT EXECUTE FUNCTION provider_webhook_notify()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER IF EXISTS provider_webhook_notify ON provider_webhook`);
    await q.query(`DROP FUNCTION IF EXISTS provider_webhook_notify()`);
    await q.query(`DROP INDEX IF EXISTS batch_item_transfer_idx`);
    await q.query(`DROP TABLE IF EXISTS provider_webhook`);
  }
}
