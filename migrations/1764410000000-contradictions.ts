import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Contradictions (ADR 0018): a later provider signal that says a published terminal state was
 * wrong (a FAILED payout paid, a SUCCESS one failed). The published state is never rewritten;
 * the contradiction is recorded beside it and stays in the operators' queue until a person
 * acknowledges it.
 * - `payout_contradiction`: one row per (payout, version, observed status): a repeat of the same
 *   observation (the next watch check, a redelivered webhook) inserts nothing and publishes
 *   nothing. `event_id` is the id of its `payouts.payout.contradicted` event. Rare rows: the
 *   open ones are read through a partial index.
 * - `payout.reopened_at`: when a person's recheck or a webhook last took the payout out of
 *   REQUIRES_ATTENTION. Such a payout is never settled FAILED by the automatic "not received"
 *   path: it goes back to a person, who proposes and approves (four eyes, ADR 0016). Nullable,
 *   no default: adding it rewrites nothing.
 * - `operator_action.action` gains `acknowledge`.
 */
export class Contradictions1764410000000 implements MigrationInterface {
  name = 'Contradictions1764410000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE payout ADD COLUMN reopened_at TIMESTAMPTZ`);
    await q.query(`
      CREATE TABLE payout_contradiction (
        id              BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        payout_id       BIGINT      NOT NULL REFERENCES payout (id),
        account_id      TEXT        NOT NULL,
        transfer_id     TEXT        NOT NULL,
        version         INTEGER     NOT NULL,
        kind            TEXT        NOT NULL,
        published       TEXT        NOT NULL,
        observed        TEXT        NOT NULL,
        source          TEXT        NOT NULL CHECK (source IN ('reconciler', 'webhook')),
        observed_code   TEXT,
        event_id        TEXT        NOT NULL UNIQUE,
        seen_at         TIMESTAMPTZ NOT NULL DEFAULT now(),
        acknowledged_by TEXT,
        acknowledged_at TIMESTAMPTZ,
        note            TEXT,
        CONSTRAINT payout_contradiction_once UNIQUE (payout_id, version, observed),
        CONSTRAINT payout_contradiction_ack CHECK ((acknowledged_by IS NULL) = (acknowledged_at IS NULL))
      )`);
    await q.query(
      `CREATE INDEX payout_contradiction_open_idx ON payout_contradiction (seen_at, id) WHERE acknowledged_at IS NULL`,
    );
    await q.query(`ALTER TABLE operator_action DROP CONSTRAINT operator_action_action_check`);
    await q.query(
      `ALTER TABLE operator_action ADD CONSTRAINT operator_action_action_check
         CHECK (action IN ('recheck', 'replay', 'propose', 'approve', 'reject', 'acknowledge'))`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM operator_action WHERE action = 'acknowledge'`);
    await q.query(`ALTER TABLE operator_action DROP CONSTRAINT operator_action_action_check`);
    await q.query(
      `ALTER TABLE operator_action ADD CONSTRAINT operator_action_action_check
         CHECK (action IN ('recheck', 'replay', 'propose', 'approve', 'reject'))`,
    );
    await q.query(`DROP TABLE IF EXISTS payout_contradiction`);
    await q.query(`ALTER TABLE payout DROP COLUMN IF EXISTS reopened_at`);
  }
}
