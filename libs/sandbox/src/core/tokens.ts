import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { type SandboxClock } from './clock.js';

export type TokenSource = 'ip' | 'signature';

export interface TokenClaims {
  readonly sub: string;
  readonly exp: number;
  readonly src: TokenSource;
}

const HEADER = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');

/**
 * Legacy bearer tokens: HS256 JWTs signed with a per-process key, checked against the sandbox
 * clock. Stateless, so checking one costs a single HMAC on the hot path.
 */
export class TokenIssuer {
  private key = randomBytes(32);
  /** Tokens already checked (signature and claims); only the expiry is re-read. Hot path. */
  private readonly verified = new Map<string, TokenClaims>();

  constructor(
    private readonly clock: SandboxClock,
    private ttlSeconds: number,
  ) {}

  issue(clientId: string, src: TokenSource): { token: string; expiry: number } {
    const now = Math.floor(this.clock.now() / 1000);
    const exp = now + this.ttlSeconds;
    const payload = Buffer.from(
      JSON.stringify({ sub: clientId, iat: now, exp, src, jti: randomBytes(6).toString('hex') }),
    ).toString('base64url');
    const body = `${HEADER}.${payload}`;
    return { token: `${body}.${this.sign(body)}`, expiry: exp };
  }

  /** The claims of a valid, unexpired token; undefined otherwise. */
  verify(token: string): TokenClaims | undefined {
    const known = this.verified.get(token);
    if (known) return known.exp * 1000 > this.clock.now() ? known : undefined;
    const claims = this.check(token);
    if (claims) {
      if (this.verified.size >= 10_000) this.verified.clear();
      this.verified.set(token, claims);
    }
    return claims;
  }

  private check(token: string): TokenClaims | undefined {
    const parts = token.split('.');
    if (parts.length !== 3) return undefined;
    const [h, p, s] = parts as [string, string, string];
    const expected = Buffer.from(this.sign(`${h}.${p}`));
    const given = Buffer.from(s);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
    let claims: unknown;
    try {
      claims = JSON.parse(Buffer.from(p, 'base64url').toString('utf8'));
    } catch {
      return undefined;
    }
    if (!isClaims(claims)) return undefined;
    if (claims.exp * 1000 <= this.clock.now()) return undefined;
    return claims;
  }

  setTtl(seconds: number): void {
    this.ttlSeconds = seconds;
  }

  /** Invalidates every token issued so far (control API reset). */
  rotate(): void {
    this.key = randomBytes(32);
    this.verified.clear();
  }

  private sign(body: string): string {
    return createHmac('sha256', this.key).update(body).digest('base64url');
  }
}

function isClaims(v: unknown): v is TokenClaims {
  if (typeof v !== 'object' || v === null) return false;
  const o = v as Record<string, unknown>;
  return typeof o.sub === 'string' && typeof o.exp === 'number' && (o.src === 'ip' || o.src === 'signature');
}

/**
 * The subject a token names, unchecked: only to pick the merchant whose issuer then verifies it
 * (a forged subject fails that merchant's check as any bad token does).
 */
export function unverifiedSubject(token: string): string | undefined {
  const payload = token.split('.')[1];
  if (payload === undefined) return undefined;
  try {
    const claims: unknown = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    const sub = typeof claims === 'object' && claims !== null ? (claims as { sub?: unknown }).sub : undefined;
    return typeof sub === 'string' ? sub : undefined;
  } catch {
    return undefined;
  }
}

/** `Authorization: Bearer <token>` -> token; undefined when absent or not a bearer. */
export function bearerOf(header: string | string[] | undefined): string | undefined {
  if (typeof header !== 'string') return undefined;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return m?.[1];
}
