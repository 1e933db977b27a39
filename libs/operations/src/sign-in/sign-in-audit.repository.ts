import type pg from 'pg';

type Db = pg.Pool | pg.PoolClient;

export type SignInMethod = 'oidc' | 'token' | 'session';

export interface SignInAuditEntry {
  readonly method: SignInMethod;
  /** `success`, `signed_out`, or why it was refused (`no_role`, `unknown_token`, `expired`, …). */
  readonly outcome: string;
  readonly operatorId?: string | null;
  readonly role?: string | null;
  readonly tokenId?: string | null;
  /** The peer's address. */
  readonly source?: string | null;
}

export interface SignInAuditRow extends Required<SignInAuditEntry> {
  readonly id: string;
  readonly at: Date;
}

/** Every statement on `operator_sign_in`: each sign-in, refusal and sign-out. Never a secret. */
export class SignInAuditRepository {
  async record(db: Db, e: SignInAuditEntry): Promise<void> {
    await db.query(
      /* sql: signInAudit.record */ `INSERT INTO operator_sign_in (method, outcome, operator_id, role, token_id, source)
       VALUES ($1, $2, $3, $4, $5, $6)`,
      [e.method, e.outcome, e.operatorId ?? null, e.role ?? null, e.tokenId ?? null, e.source ?? null],
    );
  }

  async latest(db: Db, limit: number): Promise<SignInAuditRow[]> {
    const { rows } = await db.query<{
      id: string;
      at: Date;
      method: SignInMethod;
      outcome: string;
      operator_id: string | null;
      role: string | null;
      token_id: string | null;
      source: string | null;
    }>(
      /* sql: signInAudit.latest */ `SELECT id::text AS id, at, method, outcome, operator_id, role, token_id::text AS token_id, source
         FROM operator_sign_in ORDER BY id DESC LIMIT $1`,
      [limit],
    );
    return rows.map((r) => ({
      id: r.id,
      at: r.at,
      method: r.method,
      outcome: r.outcome,
      operatorId: r.operator_id,
      role: r.role,
      tokenId: r.token_id,
      source: r.source,
    }));
  }
}
