import type pg from 'pg';
import { type OperatorRole } from '../operators.js';

type Db = pg.Pool | pg.PoolClient;

/** A token as it may be shown: never its secret, nor its hash. */
export interface OpsTokenView {
  readonly id: string;
  readonly name: string;
  readonly role: OperatorRole;
  /** The issuer's human id: everything done with the token is theirs. */
  readonly createdBy: string;
  readonly createdByName: string;
  readonly createdAt: string;
  readonly expiresAt: string;
  readonly lastUsedAt: string | null;
  readonly revokedAt: string | null;
  readonly revokedBy: string | null;
  readonly revokedByName: string | null;
}

interface Raw {
  id: string;
  name: string;
  role: OperatorRole;
  created_by: string;
  created_by_name: string | null;
  created_at: Date;
  expires_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
  revoked_by: string | null;
  revoked_by_name: string | null;
}

const view = (r: Raw): OpsTokenView => ({
  id: r.id,
  name: r.name,
  role: r.role,
  createdBy: r.created_by,
  createdByName: r.created_by_name ?? r.created_by,
  createdAt: r.created_at.toISOString(),
  expiresAt: r.expires_at.toISOString(),
  lastUsedAt: r.last_used_at?.toISOString() ?? null,
  revokedAt: r.revoked_at?.toISOString() ?? null,
  revokedBy: r.revoked_by,
  revokedByName: r.revoked_by_name ?? r.revoked_by,
});

const COLUMNS = `id::text AS id, name, role, created_by, created_by_name, created_at, expires_at, last_used_at, revoked_at, revoked_by, revoked_by_name`;

/** What a presented token is, if its hash is one of ours: live, expired or revoked. */
export type TokenLookup =
  | {
      readonly state: 'live';
      readonly id: string;
      readonly name: string;
      readonly role: OperatorRole;
      /** The issuer: human id and display name. */
      readonly createdBy: string;
      readonly createdByName: string;
    }
  | { readonly state: 'expired' | 'revoked'; readonly id: string }
  | undefined;

/** Every statement on `ops_token` (automation tokens, stored as the SHA-256 of the token). */
export class OpsTokenRepository {
  async insert(
    db: Db,
    t: {
      tokenSha256: string;
      name: string;
      role: OperatorRole;
      createdBy: string;
      createdByName: string;
      expiresAt: Date;
    },
  ): Promise<OpsTokenView> {
    const { rows } = await db.query<Raw>(
      /* sql: opsToken.insert */ `INSERT INTO ops_token (token_sha256, name, role, created_by, created_by_name, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${COLUMNS}`,
      [t.tokenSha256, t.name, t.role, t.createdBy, t.createdByName, t.expiresAt],
    );
    return view(rows[0]!);
  }

  /** Newest first; revoked and expired ones too (the list is the audit's view). */
  async list(db: Db, limit: number): Promise<OpsTokenView[]> {
    const { rows } = await db.query<Raw>(
      /* sql: opsToken.list */ `SELECT ${COLUMNS} FROM ops_token ORDER BY id DESC LIMIT $1`,
      [limit],
    );
    return rows.map(view);
  }

  /** Revokes a token not yet revoked; undefined when there is no such token or it already was. */
  async revoke(
    db: Db,
    id: string,
    by: { readonly id: string; readonly name: string },
  ): Promise<OpsTokenView | undefined> {
    const { rows } = await db.query<Raw>(
      /* sql: opsToken.revoke */ `UPDATE ops_token SET revoked_at = now(), revoked_by = $2, revoked_by_name = $3
        WHERE id = $1::bigint AND revoked_at IS NULL RETURNING ${COLUMNS}`,
      [id, by.id, by.name],
    );
    return rows[0] && view(rows[0]);
  }

  async exists(db: Db, id: string): Promise<boolean> {
    const { rows } = await db.query(
      /* sql: opsToken.exists */ `SELECT 1 AS one FROM ops_token WHERE id = $1::bigint`,
      [id],
    );
    return rows.length > 0;
  }

  /** The token with this hash; a live one has its last use noted (at most once a minute: a write per call would be waste). */
  async find(db: Db, tokenSha256: string): Promise<TokenLookup> {
    const { rows } = await db.query<{
      id: string;
      name: string;
      role: OperatorRole;
      created_by: string;
      created_by_name: string | null;
      state: 'live' | 'expired' | 'revoked';
    }>(
      /* sql: opsToken.find */ `SELECT id::text AS id, name, role, created_by, created_by_name,
              CASE WHEN revoked_at IS NOT NULL THEN 'revoked' WHEN expires_at <= now() THEN 'expired' ELSE 'live' END AS state
         FROM ops_token WHERE token_sha256 = $1`,
      [tokenSha256],
    );
    const r = rows[0];
    if (!r) return undefined;
    if (r.state !== 'live') return { state: r.state, id: r.id };
    await db.query(
      /* sql: opsToken.find.used */ `UPDATE ops_token SET last_used_at = now()
        WHERE id = $1::bigint AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')`,
      [r.id],
    );
    return {
      state: 'live',
      id: r.id,
      name: r.name,
      role: r.role,
      createdBy: r.created_by,
      createdByName: r.created_by_name ?? r.created_by,
    };
  }
}
