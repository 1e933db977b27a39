import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Four eyes means two humans (issue 30, ADR 0016). Every operator action is attributed to a
 * human: a configured operator by their id, a console session by the identity provider's issuer
 * and subject (`oidc:<iss>#<sub>`; the username is kept apart, for display), an automation token
 * by the human who issued it. The columns that four eyes compares (`proposed_by`, `decided_by`,
 * `acknowledged_by`, `operator_id`) hold that human id from now on; the display name and the way
 * in (`configured`, `session`, `token:<name>`) are kept beside it.
 *
 * - `ops_token.created_by_name`, `.revoked_by_name`: display names (`created_by`, `revoked_by` are
 *   human ids). Live
 *   tokens issued before this change are revoked: their issuer was recorded by a display name
 *   that is not a human id (an OIDC username), so a token could pass for another person. Issue
 *   them again.
 * - `operator_session.operator_name`; live sessions are ended (their `operator_id` was the
 *   username): the operators sign in again.
 * - `operator_action.operator_name`, `.via`, `.bene_proposal_id`; actions gain `ack_confirm`,
 *   `bene_approve` and `bene_reject`.
 * - `payout_proposal`: the names and ways in of both people. Open proposals made before this
 *   change are closed stale (their proposer was a username): propose again.
 * - `payout_contradiction`: the first person's acknowledgement (`ack_proposed_*`) and the second
 *   person's names (`acknowledged_by_name`, `acknowledged_via`); the two are never the same human
 *   (CHECK). Rows acknowledged before keep their one person.
 * - `beneficiary_proposal`: a person's change of a beneficiary (register, remove) waits here until
 *   another person approves; the details of a registration are sealed with the ledger's key (no
 *   account number, VPA, phone or e-mail in clear; dropped once the provider has answered),
 *   `summary` holds them masked for the approver. One open proposal per beneficiary; the decider is never the proposer (CHECK).
 * All columns added are nullable without a default: adding them rewrites nothing.
 */
export class HumanIdentity1764650000000 implements MigrationInterface {
  name = 'HumanIdentity1764650000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE ops_token ADD COLUMN created_by_name TEXT`);
    await q.query(`ALTER TABLE ops_token ADD COLUMN revoked_by_name TEXT`);
    await q.query(
      `UPDATE ops_token SET revoked_at = now(), revoked_by = 'migration:human-identity'
        WHERE revoked_at IS NULL AND expires_at > now()`,
    );
    await q.query(`ALTER TABLE operator_session ADD COLUMN operator_name TEXT`);
    await q.query(`UPDATE operator_session SET ended_at = now() WHERE ended_at IS NULL`);

    await q.query(`ALTER TABLE operator_action ADD COLUMN operator_name TEXT`);
    await q.query(`ALTER TABLE operator_action ADD COLUMN via TEXT`);
    await q.query(`ALTER TABLE operator_action ADD COLUMN bene_proposal_id BIGINT`);
    await q.query(`ALTER TABLE operator_action DROP CONSTRAINT operator_action_action_check`);
    await q.query(
      `ALTER TABLE operator_action ADD CONSTRAINT operator_action_action_check
         CHECK (action IN ('recheck', 'replay', 'propose', 'approve', 'reject', 'acknowledge', 'ack_confirm',
                           'bene_create', 'bene_delete', 'bene_approve', 'bene_reject', 'token_issue', 'token_revoke'))`,
    );

    for (const c of ['proposed_by_name', 'proposed_via', 'decided_by_name', 'decided_via'])
      await q.query(`ALTER TABLE payout_proposal ADD COLUMN ${c} TEXT`);
    await q.query(`UPDATE payout_proposal SET state = 'stale', decided_at = now() WHERE state = 'open'`);

    for (const c of [
      'ack_proposed_by TEXT',
      'ack_proposed_by_name TEXT',
      'ack_proposed_via TEXT',
      'ack_proposed_at TIMESTAMPTZ',
      'ack_proposal_note TEXT',
      'acknowledged_by_name TEXT',
      'acknowledged_via TEXT',
    ])
      await q.query(`ALTER TABLE payout_contradiction ADD COLUMN ${c}`);
    await q.query(
      `ALTER TABLE payout_contradiction ADD CONSTRAINT payout_contradiction_two_people
         CHECK (ack_proposed_by IS NULL OR acknowledged_by IS NULL OR acknowledged_by <> ack_proposed_by)`,
    );

    await q.query(`
      CREATE TABLE beneficiary_proposal (
        id               BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        account_id       TEXT        NOT NULL,
        bene_id          TEXT        NOT NULL,
        change           TEXT        NOT NULL CHECK (change IN ('create', 'delete')),
        details          JSONB,
        summary          JSONB,
        proposed_by      TEXT        NOT NULL,
        proposed_by_name TEXT        NOT NULL,
        proposed_via     TEXT        NOT NULL,
        proposed_at      TIMESTAMPTZ NOT NULL DEFAULT now(),
        state            TEXT        NOT NULL DEFAULT 'open' CHECK (state IN ('open', 'approved', 'rejected', 'failed')),
        decided_by       TEXT,
        decided_by_name  TEXT,
        decided_via      TEXT,
        decided_at       TIMESTAMPTZ,
        decision_note    TEXT,
        result           TEXT,
        CONSTRAINT beneficiary_proposal_four_eyes CHECK (decided_by IS NULL OR decided_by <> proposed_by),
        CONSTRAINT beneficiary_proposal_details CHECK (change = 'create' OR details IS NULL)
      )`);
    await q.query(
      `CREATE UNIQUE INDEX beneficiary_proposal_open_uq ON beneficiary_proposal (account_id, bene_id) WHERE state = 'open'`,
    );
    await q.query(`CREATE INDEX beneficiary_proposal_state_idx ON beneficiary_proposal (state, id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE IF EXISTS beneficiary_proposal`);
    await q.query(
      `ALTER TABLE payout_contradiction DROP CONSTRAINT IF EXISTS payout_contradiction_two_people`,
    );
    for (const c of [
      'ack_proposed_by',
      'ack_proposed_by_name',
      'ack_proposed_via',
      'ack_proposed_at',
      'ack_proposal_note',
      'acknowledged_by_name',
      'acknowledged_via',
    ])
      await q.query(`ALTER TABLE payout_contradiction DROP COLUMN IF EXISTS ${c}`);
    for (const c of ['proposed_by_name', 'proposed_via', 'decided_by_name', 'decided_via'])
      await q.query(`ALTER TABLE payout_proposal DROP COLUMN IF EXISTS ${c}`);
    await q.query(
      `DELETE FROM operator_action WHERE action IN ('ack_confirm', 'bene_approve', 'bene_reject')`,
    );
    await q.query(`ALTER TABLE operator_action DROP CONSTRAINT operator_action_action_check`);
    await q.query(
      `ALTER TABLE operator_action ADD CONSTRAINT operator_action_action_check
         CHECK (action IN ('recheck', 'replay', 'propose', 'approve', 'reject', 'acknowledge',
                           'bene_create', 'bene_delete', 'token_issue', 'token_revoke'))`,
    );
    for (const c of ['operator_name', 'via', 'bene_proposal_id'])
      await q.query(`ALTER TABLE operator_action DROP COLUMN IF EXISTS ${c}`);
    await q.query(`ALTER TABLE operator_session DROP COLUMN IF EXISTS operator_name`);
    await q.query(`ALTER TABLE ops_token DROP COLUMN IF EXISTS revoked_by_name`);
    await q.query(`ALTER TABLE ops_token DROP COLUMN IF EXISTS created_by_name`);
  }
}
