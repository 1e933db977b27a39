import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * The trace a payout or batch belongs to (ADR 0015): the W3C traceparent of the command that
 * created it (its consume span when tracing is on, else the command's own header), 55 characters,
 * or NULL when the command had none and tracing is off. Its events carry it as their
 * `traceparent` header, and the executor's and reconciler's spans join its trace.
 * A nullable column without default: adding it rewrites nothing.
 */
export class TraceContext1764300000000 implements MigrationInterface {
  name = 'TraceContext1764300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE payout ADD COLUMN traceparent TEXT`);
    await q.query(`ALTER TABLE batch ADD COLUMN traceparent TEXT`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE batch DROP COLUMN IF EXISTS traceparent`);
    await q.query(`ALTER TABLE payout DROP COLUMN IF EXISTS traceparent`);
  }
}
