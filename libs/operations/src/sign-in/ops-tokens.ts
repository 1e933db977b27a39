import { createHash, randomBytes } from 'node:crypto';
import type pg from 'pg';
import { z } from 'zod';
import { OperationsError, OperationsErrorCode } from '../operations.errors.js';
import { type OperatorActionRepository } from '../operator-action.repository.js';
import {
  mayDo,
  OPERATOR_ROLES,
  refusalOf,
  viaLabel,
  type Operator,
  type OperatorDirectory,
  type OperatorRole,
} from '../operators.js';
import { type TokenCheck } from '../sign-in-gate.js';
import { type OpsTokenRepository, type OpsTokenView } from './ops-token.repository.js';

const DAY = 86_400_000;
const DEFAULT_TTL_MS = 30 * DAY;
const NAME = /^[A-Za-z0-9._-]{1,64}$/;
/**
 * The body of POST /ops/tokens: the one schema it is checked with and the OpenAPI document shows
 * (`TokenInput`). The ceiling of `ttlHours` is configuration (OPS_TOKEN_MAX_TTL_MS), checked after.
 */
export const tokenInput = z.looseObject({
  name: z
    .string()
    .regex(NAME)
    .describe(
      "unique among tokens not revoked; what the token does is its issuer's, shown as via `token:<name>`",
    ),
  role: z
    .enum(OPERATOR_ROLES)
    .describe("at most the issuer's; whatever it is, a token never decides nor manages tokens"),
  ttlHours: z.number().positive().optional(),
});

/** Issued tokens carry a prefix, so a secret scanner (and a person) can tell one from other strings. */
export const TOKEN_PREFIX = 'pot_';

/**
 * SHA-256 of the token, hex. Not a slow password hash (scrypt, argon2): the token is 256 random
 * bits made here, not a password a person chose, so no dictionary exists to try, and a fast hash
 * keeps a lookup per API request cheap; a stolen table still gives no usable token.
 */
export const tokenSha256 = (token: string): string =>
  createHash('sha256').update(token, 'utf8').digest('hex');

export interface IssuedToken extends OpsTokenView {
  /** The token itself: in this answer only, never stored, never shown again. */
  readonly token: string;
}

/** Tokens are issued and revoked by a person signed in as themselves, never by a token. */
function allowTokens(who: Operator): void {
  if (!mayDo(who, 'tokens'))
    throw new OperationsError(OperationsErrorCode.Forbidden, refusalOf(who, 'tokens'));
}

/**
 * Automation tokens: issued, listed and revoked by an approver through the operations API,
 * without a restart (ADR 0021). Each expires. A token acts for the human who issued it (issue
 * 30): its actions are theirs, so it cannot be the second pair of eyes on its issuer's proposal,
 * and it can neither decide nor issue or revoke tokens. The configured OPS_OPERATORS tokens stay beside
 * them, for bootstrap and break-glass.
 */
export class OpsTokens {
  constructor(
    private readonly d: {
      readonly pool: pg.Pool;
      readonly tokens: OpsTokenRepository;
      readonly actions: OperatorActionRepository;
      readonly maxTtlMs: number;
      readonly now?: () => number;
    },
  ) {}

  async issue(who: Operator, body: Record<string, unknown>): Promise<IssuedToken> {
    allowTokens(who);
    const { name, role, ttlMs } = this.decode(who, body);
    const token = TOKEN_PREFIX + randomBytes(32).toString('base64url');
    const client = await this.d.pool.connect();
    try {
      await client.query('BEGIN');
      const view = await this.d.tokens.insert(client, {
        tokenSha256: tokenSha256(token),
        name,
        role,
        createdBy: who.id,
        createdByName: who.name,
        expiresAt: new Date((this.d.now?.() ?? Date.now()) + ttlMs),
      });
      await this.d.actions.record(client, {
        operatorId: who.id,
        operatorName: who.name,
        via: viaLabel(who.via),
        role: who.role,
        action: 'token_issue',
        result: `token ${view.id} (${name}, ${role})`,
      });
      await client.query('COMMIT');
      return { ...view, token };
    } catch (e) {
      await client.query('ROLLBACK');
      if ((e as { code?: unknown }).code === '23505')
        throw new OperationsError(
          OperationsErrorCode.Conflict,
          `a token named ${name} is not revoked: revoke it first, or choose another name`,
        );
      throw e;
    } finally {
      client.release();
    }
  }

  async list(limit: number): Promise<{ tokens: OpsTokenView[] }> {
    if (!Number.isInteger(limit) || limit < 1 || limit > 500)
      throw new OperationsError(OperationsErrorCode.InvalidInput, 'limit must be an integer from 1 to 500');
    return { tokens: await this.d.tokens.list(this.d.pool, limit) };
  }

  async revoke(who: Operator, id: string): Promise<OpsTokenView> {
    allowTokens(who);
    if (!/^[1-9][0-9]{0,17}$/.test(id))
      throw new OperationsError(OperationsErrorCode.NotFound, `no token ${id}`);
    const client = await this.d.pool.connect();
    try {
      await client.query('BEGIN');
      const view = await this.d.tokens.revoke(client, id, who);
      if (!view) {
        await client.query('ROLLBACK');
        if (await this.d.tokens.exists(this.d.pool, id))
          throw new OperationsError(OperationsErrorCode.Conflict, `token ${id} is already revoked`);
        throw new OperationsError(OperationsErrorCode.NotFound, `no token ${id}`);
      }
      await this.d.actions.record(client, {
        operatorId: who.id,
        operatorName: who.name,
        via: viaLabel(who.via),
        role: who.role,
        action: 'token_revoke',
        result: `token ${id} (${view.name})`,
      });
      await client.query('COMMIT');
      return view;
    } catch (e) {
      if (!(e instanceof OperationsError)) await client.query('ROLLBACK').catch(() => undefined);
      throw e;
    } finally {
      client.release();
    }
  }

  /** An issued token's check (the configured ones are the directory's): live, expired, revoked or unknown. */
  async check(token: string): Promise<TokenCheck> {
    if (!token.startsWith(TOKEN_PREFIX)) return { ok: false, reason: 'unknown_token' };
    const found = await this.d.tokens.find(this.d.pool, tokenSha256(token));
    if (!found) return { ok: false, reason: 'unknown_token' };
    if (found.state !== 'live')
      return {
        ok: false,
        reason: found.state === 'expired' ? 'expired_token' : 'revoked_token',
        tokenId: found.id,
      };
    return {
      ok: true,
      operator: {
        id: found.createdBy,
        name: found.createdByName,
        role: found.role,
        via: { kind: 'token', tokenId: found.id, tokenName: found.name },
      },
      tokenId: found.id,
    };
  }

  private decode(
    who: Operator,
    body: Record<string, unknown>,
  ): { name: string; role: OperatorRole; ttlMs: number } {
    const maxHours = this.d.maxTtlMs / 3_600_000;
    const r = tokenInput.safeParse(body);
    const refused = (f: string) => !r.success && r.error.issues.some((i) => i.path[0] === f);
    if (refused('name'))
      throw new OperationsError(OperationsErrorCode.InvalidInput, 'name: 1 to 64 of A-Z a-z 0-9 . _ -');
    if (refused('role'))
      throw new OperationsError(
        OperationsErrorCode.InvalidInput,
        `role: one of ${OPERATOR_ROLES.join(', ')}`,
      );
    const role = body['role'] as OperatorRole;
    if (OPERATOR_ROLES.indexOf(role) > OPERATOR_ROLES.indexOf(who.role))
      throw new OperationsError(
        OperationsErrorCode.Forbidden,
        'a token cannot have a higher role than its issuer',
      );
    const ttlRefused = () =>
      new OperationsError(
        OperationsErrorCode.InvalidInput,
        `ttlHours: a number of hours above 0, at most ${maxHours}`,
      );
    if (!r.success) throw ttlRefused();
    const { name, ttlHours } = r.data;
    let ttlMs = Math.min(DEFAULT_TTL_MS, this.d.maxTtlMs);
    if (ttlHours !== undefined) {
      if (ttlHours > maxHours) throw ttlRefused();
      ttlMs = Math.round(ttlHours * 3_600_000);
    }
    return { name, role, ttlMs };
  }
}

/** The configured operators' tokens first (bootstrap, break-glass), then the issued ones. */
export function tokenAuthenticator(directory: OperatorDirectory, issued: OpsTokens | undefined) {
  return async (token: string): Promise<TokenCheck> => {
    const configured = directory.check(token);
    if (configured.ok || !issued) return configured;
    return issued.check(token);
  };
}
