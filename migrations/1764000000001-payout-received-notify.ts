import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * New payouts announce themselves on the `payout_received` channel (one notification per
 * inserting statement), so an executor in another process than the intake (roles split, one image
 * per role) starts on them at once instead of at its next poll. In one process the intake wakes its
 * executor directly and nobody listens.
 */
export class PayoutReceivedNotify1764000000001 implements MigrationInterface {
  name = 'PayoutReceivedNotify1764000000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE FUNCTION payout_received_notify() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('payout_received', '');
        RETURN NULL;
      END $$`);
    await q.query(`
      CREATE TRIGGER payout_received_notify AFTER INSERT ON payout
        FOR EACH STATEMENT EXECUTE FUNCTION payout_received_notify()`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER IF EXISTS payout_received_notify ON payout`);
    await q.query(`DROP FUNCTION IF EXISTS payout_received_notify()`);
  }
}
