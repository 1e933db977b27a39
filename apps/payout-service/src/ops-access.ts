import { type ConsoleSessions, isLoopback, type OidcSettings } from '#operations';

/** The console's session cookie: an opaque random id (its SHA-256 is the database's key). */
export const SESSION_COOKIE = 'payouts_console_session';
/** A sign-in under way (between the redirect to the identity provider and its callback). */
export const LOGIN_COOKIE = 'payouts_console_login';

export const OPS_ACCESS = Symbol('OPS_ACCESS');

/** How operators get in: whether the API is on at all, and the console's OpenID Connect sign-in if set. */
export interface OpsAccess {
  /** Some operator can sign in: OPS_OPERATORS is set, or an identity provider is. */
  readonly enabled: boolean;
  readonly sessions?: ConsoleSessions;
  readonly oidc?: OidcSettings;
}

/** A cookie's value from a Cookie header, or undefined. */
export function cookieOf(header: string | string[] | undefined, name: string): string | undefined {
  if (typeof header !== 'string') return undefined;
  for (const part of header.split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === name) {
      const v = part.slice(at + 1).trim();
      return v === '' ? undefined : v;
    }
  }
  return undefined;
}

/**
 * Where the service is, as the browser sees it: the redirect URI's origin and the path before
 * `console/auth/callback` (a path prefix, behind a proxy). Cookies are Secure unless that is plain
 * http on a loopback host (a developer's machine, a test), which a browser would not keep Secure.
 */
export function publicBase(oidc: OidcSettings): { origin: string; path: string; secure: boolean } {
  const u = oidc.redirectUri;
  const path = u.pathname.slice(0, u.pathname.length - 'console/auth/callback'.length);
  return { origin: u.origin, path, secure: !(u.protocol === 'http:' && isLoopback(u)) };
}

/** A Set-Cookie value: HttpOnly, SameSite=Lax, Secure as `publicBase` says; `maxAgeS` 0 deletes it. */
export function setCookie(
  name: string,
  value: string,
  o: { path: string; secure: boolean; maxAgeS: number },
): string {
  return [
    `${name}=${value}`,
    `Path=${o.path}`,
    `Max-Age=${Math.max(0, Math.floor(o.maxAgeS))}`,
    'HttpOnly',
    'SameSite=Lax',
    ...(o.secure ? ['Secure'] : []),
  ].join('; ');
}
