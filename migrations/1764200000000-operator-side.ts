import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * The operator's side (issue 14): durable history, operator actions, four-eyes proposals, and
 * the indexes the operations search needs.
 *
 * - `state_history`: one row per state change of a payout, a batch or a batch entry, written by
 *   the ledger step in the transaction of the change (one INSERT ... unnest per transaction,
 *   whatever mix of subjects it holds: that is why it is one table with a `subject`, not three).
 *   `from_status` NULL is the row's creation (intake). Never a request field: ids, statuses,
 *   codes, provider references and who did it. No foreign key: history is append-only, kept
 *   past outbox retention, and the check would cost the hot path a lookup per row.
 * - `operator_action`: what an operator did that is not (only) a state change: recheck, replay,
 *   propose, approve, reject, with who did it. A payout's timeline merges both.
 * - `payout_proposal`: four-eyes settlement of a REQUIRES_ATTENTION payout. One open proposal
 *   per payout (partial unique index); the decider is never the proposer (CHECK).
 * - Search, newest first with a keyset on (created_at, id): the no-filter list and a date range
 *   read `payout_search_created_idx` backwards; one status reads `payout_search_status_idx`
 *   (REQUIRES_ATTENTION is rare: without it, a page scans the whole table); a UTR or a transferId
 *   prefix reads its own index and sorts the few rows found. Account and kind are filters only: a
 *   deployment has few accounts and six kinds, and every index costs each state change (an
 *   update of `status` is never HOT, so it writes every index of `payout`).
 */
export class OperatorSide1764200000000 implements MigrationInterface {
  name = 'OperatorSide1764200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE state_history (
        id           BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        subject      TEXT        NOT NULL CHECK (subject IN ('payout', 'batch', 'batch_entry')),
        subject_id   BIGINT      NOT NULL,
        account_id   TEXT        NOT NULL,
        transfer_id  TEXT        NOT NULL,
        from_status  TEXT,
        to_status    TEXT        NOT NULL,
        version      INTEGER     NOT NULL,
        cause        TEXT        NOT NULL CHECK (cause IN ('intake', 'executor', 'reconciler', 'webhook', 'operator')),
        reason       TEXT,
        status_code  TEXT,
        reference_id TEXT,
        utr          TEXT,
        operator_id  TEXT,
        approver_id  TEXT,
        proposal_id  BIGINT,
        at           TIMESTAMPTZ NOT NULL DEFAULT now(),
        CONSTRAINT state_history_operator CHECK ((cause = 'operator') = (operator_id IS NOT NULL))
      )`);
    // A timeline: the changes of one subject in order (batch entries share their batch's id).
    await q.query(`CREATE INDEX state_history_subject_idx ON state_history (subject, subject_id, id)`);

    await q.query(`
      CREATE TABLE operator_action (
        id           BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        operator_id  TEXT        NOT NULL,
        role         TEXT        NOT NULL,
        action       TEXT        NOT NULL CHECK (action IN ('recheck', 'replay', 'propose', 'approve', 'reject')),
        payout_id    BIGINT,
        account_id   TEXT,
        transfer_id  TEXT,
        event_id     TEXT,
        proposal_id  BIGINT,
        result       TEXT        NOT NULL,
        at           TIMESTAMPTZ NOT NULL DEFAULT now()
      )`);
    await q.query(
      `CREATE INDEX operator_action_payout_idx ON operator_action (payout_id, id) WHERE payout_id IS NOT NULL`,
    );

    await q.query(`
      CREATE TABLE payout_proposal (
        id            BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        payout_id     BIGINT      NOT NULL REFERENCES payout (id),
        account_id    TEXT        NOT NULL,
        transfer_id   TEXT        NOT NULL,
        from_version  INTEGER     NOT NULL,
        outcome       TEXT        NOT NULL CHECK (outcome IN ('SUCCESS', 'FAILED')),
        utr           TEXT,
        note          TEXT        NOT NULL,
        proposed_by   TEXT        NOT NULL,
        proposed_at   TIMESTAMPTZ NOT NULL DEFAULT now(),
        state         TEXT        NOT NULL DEFAULT 'open' CHECK (state IN ('open', 'approved', 'rejected', 'stale')),
        decided_by    TEXT,
        decided_at    TIMESTAMPTZ,
        decision_note TEXT,
        CONSTRAINT payout_proposal_four_eyes CHECK (decided_by IS NULL OR decided_by <> proposed_by)
      )`);
    await q.query(
      `CREATE UNIQUE INDEX payout_proposal_open_uq ON payout_proposal (payout_id) WHERE state = 'open'`,
    );
    await q.query(`CREATE INDEX payout_proposal_state_idx ON payout_proposal (state, id)`);

    await q.query(`CREATE INDEX payout_search_created_idx ON payout (created_at, id)`);
    await q.query(`CREATE INDEX payout_search_status_idx ON payout (status, created_at, id)`);
    await q.query(`CREATE INDEX payout_search_utr_idx ON payout (utr) WHERE utr IS NOT NULL`);
    await q.query(`CREATE INDEX payout_search_transfer_idx ON payout (transfer_id text_pattern_ops)`);
    await q.query(`CREATE INDEX batch_item_utr_idx ON batch_item (utr) WHERE utr IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const i of [
      'batch_item_utr_idx',
      'payout_search_transfer_idx',
      'payout_search_utr_idx',
      'payout_search_status_idx',
      'payout_search_created_idx',
    ])
      await q.query(`DROP INDEX IF EXISTS ${i}`);
    await q.query(`DROP TABLE IF EXISTS payout_proposal`);
    await q.query(`DROP TABLE IF EXISTS operator_action`);
    await q.query(`DROP TABLE IF EXISTS state_history`);
  }
}
