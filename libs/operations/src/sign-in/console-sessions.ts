import { createHash, randomBytes } from 'node:crypto';
import type pg from 'pg';
import { oidcHumanId, type Operator } from '../operators.js';
import { type IdentityProvider } from './oidc-client.js';
import { type OperatorSessionRepository } from './operator-session.repository.js';
import { roleFromClaims } from './role-map.js';
import { type OidcSettings } from './sign-in.config.js';
import { type SignInRecorder } from './sign-in-recorder.js';

/** How long a started sign-in may take at the identity provider (its login and consent pages). */
export const LOGIN_TTL_MS = 10 * 60_000;

export interface SessionPolicy {
  readonly maxAgeMs: number;
  readonly idleMs: number;
}

/** An opaque id for a browser cookie (256 random bits) and the hash the database keeps. */
export function newOpaqueId(): { id: string; sha256: string } {
  const id = randomBytes(32).toString('base64url');
  return { id, sha256: sha256Of(id) };
}

export const sha256Of = (id: string): string => createHash('sha256').update(id, 'utf8').digest('hex');

/**
 * A session's absolute end: its maximum age from sign-in, and never past the ID token's own
 * expiry (there is no refresh: the operator signs in again).
 */
export function sessionEnd(now: number, policy: SessionPolicy, idTokenExpiresAt: number): Date {
  return new Date(Math.min(now + policy.maxAgeMs, idTokenExpiresAt));
}

/** Where a sign-in ended. */
export type SignInResult =
  | { readonly ok: true; readonly sessionId: string; readonly operator: Operator; readonly expiresAt: Date }
  | {
      readonly ok: false;
      /** no_login: no (or an expired, or an already used) sign-in under way for this browser. */
      readonly reason: 'no_role' | 'provider_error' | 'no_login';
      readonly who?: string;
      /** provider_error: what went wrong, fit for a log line (see `oidcFailure`). */
      readonly detail?: string;
    };

/**
 * A failed exchange or validation, for the log: the error's class, its code, and the provider's
 * OAuth error code if it answered one (`invalid_client`, `invalid_grant`): what an SRE needs to
 * tell a wrong secret from clock skew. Never the message's free text, which may quote a response.
 */
export function oidcFailure(e: unknown): string {
  if (!(e instanceof Error)) return 'unknown';
  const f = e as Error & { code?: unknown; error?: unknown; cause?: { code?: unknown } };
  const str = (v: unknown) => (typeof v === 'string' ? v : null);
  return [e.name, str(f.code), str(f.error), str(f.cause?.code)]
    .filter((x): x is string => x !== null && /^[\w.-]{1,80}$/.test(x))
    .join(' ');
}

/**
 * The console's sign-in with the company's identity provider, as use cases: start (the redirect),
 * finish (the callback: code exchange, role from the claim, a server-side session), the session
 * of a request, and sign-out. The browser holds opaque random ids only; the database their hashes.
 */
export class ConsoleSessions {
  constructor(
    private readonly d: {
      readonly pool: pg.Pool;
      readonly repository: OperatorSessionRepository;
      readonly provider: IdentityProvider;
      readonly settings: OidcSettings;
      readonly policy: SessionPolicy;
      readonly recorder: SignInRecorder;
      readonly now?: () => number;
    },
  ) {}

  private now(): number {
    return this.d.now?.() ?? Date.now();
  }

  /** The identity provider's authorization URL, and the id of the sign-in for the browser's cookie. */
  async start(): Promise<{ loginId: string; url: URL }> {
    const a = await this.d.provider.authorize();
    const { id, sha256 } = newOpaqueId();
    await this.d.repository.savePending(
      this.d.pool,
      sha256,
      { state: a.state, nonce: a.nonce, codeVerifier: a.codeVerifier },
      LOGIN_TTL_MS,
    );
    return { loginId: id, url: a.url };
  }

  async finish(loginId: string | undefined, callbackUrl: URL, source: string): Promise<SignInResult> {
    const pending = loginId ? await this.d.repository.takePending(this.d.pool, sha256Of(loginId)) : undefined;
    if (!pending) {
      await this.d.recorder.console({ method: 'oidc', outcome: 'no_login', source });
      return { ok: false, reason: 'no_login' };
    }
    let identity;
    try {
      identity = await this.d.provider.finish(callbackUrl, pending);
    } catch (e) {
      await this.d.recorder.console({ method: 'oidc', outcome: 'provider_error', source });
      return { ok: false, reason: 'provider_error', detail: oidcFailure(e) };
    }
    const role = roleFromClaims(identity.claims, this.d.settings.rolesClaim, this.d.settings.roleMap);
    // The person is the provider's issuer and subject; the username is only shown.
    const human = oidcHumanId(identity.issuer, identity.subject);
    if (!role) {
      await this.d.recorder.console({
        method: 'oidc',
        outcome: 'no_role',
        operatorId: human,
        source,
      });
      return { ok: false, reason: 'no_role', who: identity.name };
    }
    const operator: Operator = { id: human, name: identity.name, role, via: { kind: 'session' } };
    const expiresAt = sessionEnd(this.now(), this.d.policy, identity.expiresAt);
    const { id, sha256 } = newOpaqueId();
    await this.d.repository.create(this.d.pool, {
      idSha256: sha256,
      operatorId: operator.id,
      operatorName: operator.name,
      role,
      subject: identity.subject,
      expiresAt,
    });
    await this.d.recorder.console({
      method: 'oidc',
      outcome: 'success',
      operatorId: operator.id,
      role,
      source,
    });
    return { ok: true, sessionId: id, operator, expiresAt };
  }

  /** The operator of a live session (its idle clock restarted), or undefined (counted). */
  async operatorOf(sessionId: string): Promise<Operator | undefined> {
    const row = await this.d.repository.touch(this.d.pool, sha256Of(sessionId), this.d.policy.idleMs);
    if (!row) {
      this.d.recorder.metrics.signIns.inc({ method: 'session', outcome: 'expired' });
      return undefined;
    }
    return { id: row.operatorId, name: row.operatorName, role: row.role, via: { kind: 'session' } };
  }

  /**
   * Ends the session here (the cookie no longer works, whatever the browser does next) and gives
   * the provider's end-session address, returning to `after`, when it has one.
   */
  async signOut(sessionId: string | undefined, after: URL, source: string): Promise<URL | undefined> {
    const ended = sessionId ? await this.d.repository.end(this.d.pool, sha256Of(sessionId)) : undefined;
    if (ended)
      await this.d.recorder.console({
        method: 'oidc',
        outcome: 'signed_out',
        operatorId: ended.operatorId,
        role: ended.role,
        source,
      });
    try {
      return await this.d.provider.endSessionUrl(after);
    } catch {
      return undefined;
    }
  }

  async prune(): Promise<number> {
    return this.d.repository.prune(this.d.pool);
  }
}
