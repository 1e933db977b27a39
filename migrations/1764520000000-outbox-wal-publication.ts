import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * OUTBOX_TRANSPORT=wal (ADR 0023) streams the outbox's logical decoding messages with pgoutput,
 * which needs a publication to be named. Its events are messages, not table changes, so the
 * publication lists no table: every row change of the ledger is filtered out of the stream.
 * Harmless without wal_level=logical (PostgreSQL only warns that nothing could be published yet).
 */
export class OutboxWalPublication1764520000000 implements MigrationInterface {
  name = 'OutboxWalPublication1764520000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE PUBLICATION payouts_outbox`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP PUBLICATION IF EXISTS payouts_outbox`);
  }
}
