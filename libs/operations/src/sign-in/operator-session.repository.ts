import type pg from 'pg';
import { type OperatorRole } from '../operators.js';

type Db = pg.Pool | pg.PoolClient;

/** A sign-in under way: what the callback checks the identity provider's answer against. */
export interface PendingLogin {
  readonly state: string;
  readonly nonce: string;
  readonly codeVerifier: string;
}

export interface SessionRow {
  readonly id: string;
  /** The person's human id (`oidc:<iss>#<sub>`), and their display name. */
  readonly operatorId: string;
  readonly operatorName: string;
  readonly role: OperatorRole;
  readonly expiresAt: Date;
}

interface RawSession {
  id: string;
  operator_id: string;
  operator_name: string | null;
  role: OperatorRole;
  expires_at: Date;
}

const sessionRow = (r: RawSession): SessionRow => ({
  id: r.id,
  operatorId: r.operator_id,
  operatorName: r.operator_name ?? r.operator_id,
  role: r.role,
  expiresAt: r.expires_at,
});

/**
 * Every statement on `operator_login` and `operator_session`. Rows are found by the SHA-256 of the
 * opaque id the browser holds: the id itself is never stored.
 */
export class OperatorSessionRepository {
  async savePending(db: Db, idSha256: string, p: PendingLogin, ttlMs: number): Promise<void> {
    await db.query(
      /* sql: operatorSession.savePending */ `INSERT INTO operator_login (id_sha256, state, nonce, code_verifier, expires_at)
       VALUES ($1, $2, $3, $4, now() + make_interval(secs => $5::double precision / 1000))`,
      [idSha256, p.state, p.nonce, p.codeVerifier, ttlMs],
    );
  }

  /** The pending sign-in, deleted as it is read: a callback is answered once. */
  async takePending(db: Db, idSha256: string): Promise<PendingLogin | undefined> {
    const { rows } = await db.query<{
      state: string;
      nonce: string;
      code_verifier: string;
    }>(
      /* sql: operatorSession.takePending */ `DELETE FROM operator_login WHERE id_sha256 = $1 AND expires_at > now()
       RETURNING state, nonce, code_verifier`,
      [idSha256],
    );
    const r = rows[0];
    return r && { state: r.state, nonce: r.nonce, codeVerifier: r.code_verifier };
  }

  async create(
    db: Db,
    s: {
      idSha256: string;
      operatorId: string;
      operatorName: string;
      role: OperatorRole;
      subject: string;
      expiresAt: Date;
    },
  ): Promise<void> {
    await db.query(
      /* sql: operatorSession.create */ `INSERT INTO operator_session (id_sha256, operator_id, operator_name, role, subject, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6)`,
      [s.idSha256, s.operatorId, s.operatorName, s.role, s.subject, s.expiresAt],
    );
  }

  /**
   * The live session of this id, its idle clock restarted: one statement per request. Undefined
   * when there is none, it ended, it is past its absolute end or it was idle longer than `idleMs`.
   */
  async touch(db: Db, idSha256: string, idleMs: number): Promise<SessionRow | undefined> {
    const { rows } = await db.query<RawSession>(
      /* sql: operatorSession.touch */ `UPDATE operator_session SET last_seen_at = now()
        WHERE id_sha256 = $1 AND ended_at IS NULL AND expires_at > now()
          AND last_seen_at > now() - make_interval(secs => $2::double precision / 1000)
        RETURNING id::text AS id, operator_id, operator_name, role, expires_at`,
      [idSha256, idleMs],
    );
    const r = rows[0];
    return r && sessionRow(r);
  }

  /** Ends the session (sign-out); the operator it was, if it was live. */
  async end(db: Db, idSha256: string): Promise<SessionRow | undefined> {
    const { rows } = await db.query<RawSession>(
      /* sql: operatorSession.end */ `UPDATE operator_session SET ended_at = now()
        WHERE id_sha256 = $1 AND ended_at IS NULL
        RETURNING id::text AS id, operator_id, operator_name, role, expires_at`,
      [idSha256],
    );
    const r = rows[0];
    return r && sessionRow(r);
  }

  /** Forgets sign-ins never finished and sessions over for a day (kept that long for the audit's sake). */
  async prune(db: Db): Promise<number> {
    const a = await db.query(
      /* sql: operatorSession.prune.logins */ `DELETE FROM operator_login WHERE expires_at < now()`,
    );
    const b = await db.query(/* sql: operatorSession.prune.sessions */ `DELETE FROM operator_session
        WHERE coalesce(ended_at, expires_at) < now() - interval '1 day'`);
    return (a.rowCount ?? 0) + (b.rowCount ?? 0);
  }
}
