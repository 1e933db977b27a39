import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Operators sign in with the company's identity provider, and automation tokens are issued,
 * listed and revoked at run time (issue 24, ADR 0021).
 *
 * - `operator_login`: a sign-in under way (between the redirect to the identity provider and its
 *   callback): the PKCE verifier, state and nonce, found by the SHA-256 of the opaque id in the
 *   browser's short-lived cookie; taken (deleted) by the callback, so a code is exchanged once.
 * - `operator_session`: a console session, found by the SHA-256 of the opaque id in its cookie
 *   (a copy of the table gives no one a session). `expires_at` is the absolute end, never later
 *   than the ID token's own expiry; `last_seen_at` carries the idle expiry; `ended_at` a sign-out.
 * - `ops_token`: automation tokens, stored as the SHA-256 of the token; each expires; a revoked
 *   one keeps its row (who revoked it, when) for the audit.
 * - `operator_sign_in`: every sign-in and refusal (oidc, token) and sign-out, with who when known,
 *   how, the outcome and the source address; never a token, code or secret.
 * - `operator_action` gains `token_issue` and `token_revoke` (the token's id in `result`).
 */
export class OperatorSignIn1764450000000 implements MigrationInterface {
  name = 'OperatorSignIn1764450000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE operator_login (
        id_sha256      TEXT        PRIMARY KEY,
        state          TEXT        NOT NULL,
        nonce          TEXT        NOT NULL,
        code_verifier  TEXT        NOT NULL,
        expires_at     TIMESTAMPTZ NOT NULL
      )`);
    await q.query(`
      CREATE TABLE operator_session (
        id             BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        id_sha256      TEXT        NOT NULL UNIQUE,
        operator_id    TEXT        NOT NULL,
        role           TEXT        NOT NULL CHECK (role IN ('viewer', 'operator', 'approver')),
        subject        TEXT        NOT NULL,
        created_at     TIMESTAMPTZ NOT NULL DEFAULT now(),
        last_seen_at   TIMESTAMPTZ NOT NULL DEFAULT now(),
        expires_at     TIMESTAMPTZ NOT NULL,
        ended_at       TIMESTAMPTZ
      )`);
    await q.query(`CREATE INDEX operator_session_expires_idx ON operator_session (expires_at)`);
    await q.query(`
      CREATE TABLE ops_token (
        id             BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        token_sha256   TEXT        NOT NULL UNIQUE,
        name           TEXT        NOT NULL,
        role           TEXT        NOT NULL CHECK (role IN ('viewer', 'operator', 'approver')),
        created_by     TEXT        NOT NULL,
        created_at     TIMESTAMPTZ NOT NULL DEFAULT now(),
        expires_at     TIMESTAMPTZ NOT NULL,
        last_used_at   TIMESTAMPTZ,
        revoked_at     TIMESTAMPTZ,
        revoked_by     TEXT,
        CONSTRAINT ops_token_revoked CHECK ((revoked_at IS NULL) = (revoked_by IS NULL))
      )`);
    // The token's operator id is `token:<name>`: one live name at a time, so the history is unambiguous.
    await q.query(`CREATE UNIQUE INDEX ops_token_live_name_idx ON ops_token (name) WHERE revoked_at IS NULL`);
    await q.query(`
      CREATE TABLE operator_sign_in (
        id             BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        at             TIMESTAMPTZ NOT NULL DEFAULT now(),
        method         TEXT        NOT NULL CHECK (method IN ('oidc', 'token', 'session')),
        outcome        TEXT        NOT NULL,
        operator_id    TEXT,
        role           TEXT,
        token_id       BIGINT,
        source         TEXT
      )`);
    await q.query(`CREATE INDEX operator_sign_in_at_idx ON operator_sign_in (at)`);
    await q.query(`ALTER TABLE operator_action DROP CONSTRAINT operator_action_action_check`);
    await q.query(
      `ALTER TABLE operator_action ADD CONSTRAINT operator_action_action_check
         CHECK (action IN ('recheck', 'replay', 'propose', 'approve', 'reject', 'acknowledge',
                           'bene_create', 'bene_delete', 'token_issue', 'token_revoke'))`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM operator_action WHERE action IN ('token_issue', 'token_revoke')`);
    await q.query(`ALTER TABLE operator_action DROP CONSTRAINT operator_action_action_check`);
    await q.query(
      `ALTER TABLE operator_action ADD CONSTRAINT operator_action_action_check
         CHECK (action IN ('recheck', 'replay', 'propose', 'approve', 'reject', 'acknowledge',
                           'bene_create', 'bene_delete'))`,
    );
    await q.query(`DROP TABLE operator_sign_in`);
    await q.query(`DROP TABLE ops_token`);
    await q.query(`DROP TABLE operator_session`);
    await q.query(`DROP TABLE operator_login`);
  }
}
