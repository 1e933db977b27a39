import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * What an event says must be a function of its id (account, entity and version), so a state
 * re-emitted for a duplicate command is the same event as the original:
 *
 * - `payout.state_changed_at`: when the current version began. `updated_at` also moves on a
 *   reschedule, which is not a state change; this column moves only with `version` (a trigger,
 *   so no writer can forget it).
 * - `batch.totals`: the entry totals the event of the current version carried (NULL: entries only).
 *
 * And the relay's head query walks pending rows in id order (`outbox_pending_id_idx`), so after
 * an outage with millions of pending rows a round still reads only about as many rows as it claims.
 */
export class EventIdentity1763930000000 implements MigrationInterface {
  name = 'EventIdentity1763930000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE payout ADD COLUMN state_changed_at TIMESTAMPTZ`);
    await q.query(`UPDATE payout SET state_changed_at = updated_at`);
    await q.query(`ALTER TABLE payout ALTER COLUMN state_changed_at SET DEFAULT now()`);
    await q.query(`ALTER TABLE payout ALTER COLUMN state_changed_at SET NOT NULL`);
    await q.query(`
      CREATE FUNCTION payout_state_changed_at() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        NEW.state_changed_at := now();
        RETURN NEW;
      END $$`);
    await q.query(`
      CREATE TRIGGER payout_state_changed_at BEFORE UPDATE ON payout
        FOR EACH ROW WHEN (NEW.version IS DISTINCT FROM OLD.version)
        EXECUTE FUNCTION payout_state_changed_at()`);

    await q.query(`ALTER TABLE batch ADD COLUMN totals JSONB`);

    await q.query(`CREATE INDEX outbox_pending_id_idx ON outbox (id) WHERE state = 'pending'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX IF EXISTS outbox_pending_id_idx`);
    await q.query(`ALTER TABLE batch DROP COLUMN IF EXISTS totals`);
    await q.query(`DROP TRIGGER IF EXISTS payout_state_changed_at ON payout`);
    await q.query(`DROP FUNCTION IF EXISTS payout_state_changed_at()`);
    await q.query(`ALTER TABLE payout DROP COLUMN IF EXISTS state_changed_at`);
  }
}
