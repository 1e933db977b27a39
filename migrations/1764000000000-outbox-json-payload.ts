import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * The outbox keeps an event's payload as the JSON text the service wrote (`json`, not `jsonb`):
 * the relay sends that text to Kafka as it is, instead of Postgres building a jsonb value on insert,
 * printing it back on every claim, and the service parsing it and printing it again. Nothing
 * queries inside a payload but tests, and `->`/`->>` work on `json` too.
 *
 * Rewrites the table: run it while the outbox is small (it is, unless Kafka has been down a while).
 */
export class OutboxJsonPayload1764000000000 implements MigrationInterface {
  name = 'OutboxJsonPayload1764000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE outbox ALTER COLUMN payload TYPE json USING payload::json`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE outbox ALTER COLUMN payload TYPE jsonb USING payload::jsonb`);
  }
}
