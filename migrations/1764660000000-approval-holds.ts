import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Issue 30, approval before sending (ADR 0024). A payout or batch the account's approval policy
 * catches waits in AWAITING_APPROVAL (the status CHECKs below), set in intake's own transaction,
 * before the executor may claim it.
 *
 * - `approval_hold`: one per held payout or batch: the rules that caught it, the policy's version,
 *   how many distinct approvers of which role it needs, when it expires, and how it ended.
 * - `approval_decision`: each person's approval or rejection of a hold (one per person and hold:
 *   the primary key is what makes approvers distinct).
 * - `beneficiary_change`: every beneficiary create and remove that succeeded, by the operations API
 *   or a Kafka request, with its time and (for a person) who: the rule "instrument changed within
 *   a period" reads it, and whoever changed it may not approve the payout.
 * - `approval_daily_sum`: the day's sums per account and per beneficiary, kept only for accounts
 *   whose policy has a daily cap (intake adds to them in its transaction).
 *
 * Cost on the hot path: none for a payout of an account without a policy (nothing here is read or
 * written); the partial index on AWAITING_APPROVAL has no entry for any other row.
 */
export class ApprovalHolds1764660000000 implements MigrationInterface {
  name = 'ApprovalHolds1764660000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE payout DROP CONSTRAINT payout_status_check`);
    await q.query(`
      ALTER TABLE payout ADD CONSTRAINT payout_status_check CHECK (status IN (
        'RECEIVED', 'AWAITING_APPROVAL', 'SUBMITTING', 'PENDING', 'UNKNOWN', 'SUCCESS', 'FAILED',
        'REJECTED', 'REVERSED', 'REQUIRES_ATTENTION'))`);
    await q.query(`ALTER TABLE batch DROP CONSTRAINT batch_status_check`);
    await q.query(`
      ALTER TABLE batch ADD CONSTRAINT batch_status_check CHECK (status IN (
        'RECEIVED', 'AWAITING_APPROVAL', 'SUBMITTING', 'PROCESSING', 'UNKNOWN', 'COMPLETED',
        'FAILED', 'REJECTED', 'REQUIRES_ATTENTION'))`);
    // The ledger gauge counts each live status through an index whose predicate is that status.
    await q.query(
      `CREATE INDEX payout_awaiting_approval_idx ON payout (created_at) WHERE status = 'AWAITING_APPROVAL'`,
    );

    await q.query(`
      CREATE TABLE approval_hold (
        id               BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        subject          TEXT        NOT NULL CHECK (subject IN ('payout', 'batch')),
        subject_id       BIGINT      NOT NULL,
        account_id       TEXT        NOT NULL,
        transfer_id      TEXT        NOT NULL,
        amount           NUMERIC(16,2) NOT NULL,
        rules            JSONB       NOT NULL,
        policy_version   TEXT        NOT NULL,
        approvals_needed INTEGER     NOT NULL CHECK (approvals_needed >= 1),
        approver_role    TEXT        NOT NULL CHECK (approver_role IN ('operator', 'approver')),
        excluded         TEXT[]      NOT NULL DEFAULT '{}',
        state            TEXT        NOT NULL DEFAULT 'waiting'
                                     CHECK (state IN ('waiting', 'approved', 'rejected', 'expired')),
        reason           TEXT,
        created_at       TIMESTAMPTZ NOT NULL DEFAULT now(),
        expires_at       TIMESTAMPTZ NOT NULL,
        decided_at       TIMESTAMPTZ,
        CONSTRAINT approval_hold_subject UNIQUE (subject, subject_id),
        CONSTRAINT approval_hold_decided CHECK ((state = 'waiting') = (decided_at IS NULL))
      )`);
    await q.query(
      `CREATE INDEX approval_hold_waiting_idx ON approval_hold (expires_at, id) WHERE state = 'waiting'`,
    );
    await q.query(
      `CREATE INDEX approval_hold_transfer_idx ON approval_hold (account_id, transfer_id, subject)`,
    );
    await q.query(`
      CREATE TABLE approval_decision (
        hold_id      BIGINT      NOT NULL REFERENCES approval_hold (id),
        approver     TEXT        NOT NULL,
        operator_id  TEXT        NOT NULL,
        role         TEXT        NOT NULL,
        decision     TEXT        NOT NULL CHECK (decision IN ('approve', 'reject')),
        note         TEXT,
        at           TIMESTAMPTZ NOT NULL DEFAULT now(),
        PRIMARY KEY (hold_id, approver)
      )`);
    await q.query(`
      CREATE TABLE beneficiary_change (
        id           BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        account_id   TEXT        NOT NULL,
        bene_id      TEXT        NOT NULL,
        change       TEXT        NOT NULL CHECK (change IN ('created', 'removed')),
        source       TEXT        NOT NULL CHECK (source IN ('ops', 'queries')),
        operator_id  TEXT,
        at           TIMESTAMPTZ NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX beneficiary_change_bene_idx ON beneficiary_change (account_id, bene_id, at)`);
    await q.query(`
      CREATE TABLE approval_daily_sum (
        account_id  TEXT          NOT NULL,
        day         DATE          NOT NULL,
        bene_id     TEXT          NOT NULL,
        amount      NUMERIC(18,2) NOT NULL,
        PRIMARY KEY (account_id, day, bene_id)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE approval_daily_sum`);
    await q.query(`DROP TABLE beneficiary_change`);
    await q.query(`DROP TABLE approval_decision`);
    await q.query(`DROP TABLE approval_hold`);
    await q.query(`DROP INDEX payout_awaiting_approval_idx`);
    // Waiting rows end REJECTED (nothing was sent), so the old CHECKs hold.
    await q.query(
      `UPDATE payout SET status = 'REJECTED', reason = 'approval_expired', version = version + 1, updated_at = now()
        WHERE status = 'AWAITING_APPROVAL'`,
    );
    await q.query(
      `UPDATE batch SET status = 'REJECTED', reason = 'approval_expired', version = version + 1, updated_at = now()
        WHERE status = 'AWAITING_APPROVAL'`,
    );
    await q.query(`ALTER TABLE payout DROP CONSTRAINT payout_status_check`);
    await q.query(`
      ALTER TABLE payout ADD CONSTRAINT payout_status_check CHECK (status IN (
        'RECEIVED', 'SUBMITTING', 'PENDING', 'UNKNOWN', 'SUCCESS', 'FAILED',
        'REJECTED', 'REVERSED', 'REQUIRES_ATTENTION'))`);
    await q.query(`ALTER TABLE batch DROP CONSTRAINT batch_status_check`);
    await q.query(`
      ALTER TABLE batch ADD CONSTRAINT batch_status_check CHECK (status IN (
        'RECEIVED', 'SUBMITTING', 'PROCESSING', 'UNKNOWN', 'COMPLETED',
        'FAILED', 'REJECTED', 'REQUIRES_ATTENTION'))`);
  }
}
