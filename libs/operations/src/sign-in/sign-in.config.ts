import { z } from 'zod';
import { defineSection, env, envVar, type SectionValues } from '#config';
import { type RoleMap, roleMapSchema } from './role-map.js';

const HOUR = 3_600_000;
const optionalUrl = z.union([z.literal(''), env.url(['https', 'http'])]);

/**
 * Operators' sign-in with the company's identity provider (OpenID Connect, ADR 0021) and the
 * automation tokens an approver issues. Documented in docs/CONFIGURATION.md ("Operator sign-in").
 */
export const signInConfig = defineSection('operator-sign-in', {
  OIDC_ISSUER: envVar({
    schema: optionalUrl,
    default: '',
    description:
      "The identity provider's issuer URL (its `/.well-known/openid-configuration` is read from it); empty turns OpenID Connect sign-in off (operators sign in with tokens only). http is accepted only for a loopback host (tests)",
  }),
  OIDC_CLIENT_ID: envVar({
    schema: z.string(),
    default: '',
    description: "The console's client id at the identity provider (required with OIDC_ISSUER)",
  }),
  OIDC_CLIENT_SECRET: envVar({
    schema: z.string(),
    default: '',
    description: "The console's client secret (a confidential client; required with OIDC_ISSUER)",
    sensitive: true,
  }),
  OIDC_REDIRECT_URI: envVar({
    schema: optionalUrl,
    default: '',
    description:
      "The service's own address of the callback as the browser sees it, `https://<host>[/<prefix>]/console/auth/callback`, registered at the provider (required with OIDC_ISSUER). Its origin is the console's origin: cookies are Secure unless it is http on a loopback host",
  }),
  OIDC_SCOPES: envVar({
    schema: z.string().min(1),
    default: 'openid profile',
    description:
      'Scopes asked for (space-separated, `openid` first); add the one your provider needs for the roles claim (Okta: `groups`)',
  }),
  OIDC_ROLES_CLAIM: envVar({
    schema: z.string().min(1),
    default: 'groups',
    description:
      "The claim (of the ID token, else of userinfo) holding the user's groups or roles: a name (`groups`, `roles`, a URL-named custom claim) or a dotted path (`realm_access.roles`)",
  }),
  OIDC_ROLE_MAP: envVar({
    schema: roleMapSchema,
    default: '',
    description:
      '`claim-value=role,…`: which values of OIDC_ROLES_CLAIM give which role (viewer, operator, approver); a user holding several gets the highest. A user with none is refused (counted and audited)',
  }),
  OPS_SESSION_MAX_AGE_MS: envVar({
    schema: env.positiveInt(),
    default: String(8 * HOUR),
    description:
      "A console session's absolute lifetime from sign-in; never longer than the ID token's own expiry (there is no refresh: the operator signs in again)",
  }),
  OPS_SESSION_IDLE_MS: envVar({
    schema: env.positiveInt(),
    default: String(HOUR / 2),
    description: 'A console session unused this long ends (the next request is refused: sign in again)',
  }),
  OPS_TOKEN_MAX_TTL_MS: envVar({
    schema: env.positiveInt(),
    default: String(90 * 24 * HOUR),
    description:
      'The longest lifetime an approver may give an automation token issued through the operations API (POST /ops/tokens); the default lifetime is the shorter of this and 30 days',
  }),
});

export type SignInConfig = SectionValues<typeof signInConfig.vars>;

/** OpenID Connect settings, complete, or undefined when it is off. */
export interface OidcSettings {
  readonly issuer: URL;
  readonly clientId: string;
  readonly clientSecret: string;
  readonly redirectUri: URL;
  readonly scopes: string;
  readonly rolesClaim: string;
  readonly roleMap: RoleMap;
}

/**
 * The settings when an issuer is set, with what is missing listed (the boot fails with the list).
 * Every var is checked on its own by the section; this is what they must be together.
 */
export function oidcSettings(c: SignInConfig): { settings?: OidcSettings; problems: string[] } {
  if (c.OIDC_ISSUER === '') return { problems: [] };
  const problems: string[] = [];
  if (c.OIDC_CLIENT_ID === '') problems.push('OIDC_CLIENT_ID is required with OIDC_ISSUER');
  if (c.OIDC_CLIENT_SECRET === '') problems.push('OIDC_CLIENT_SECRET is required with OIDC_ISSUER');
  if (c.OIDC_REDIRECT_URI === '') problems.push('OIDC_REDIRECT_URI is required with OIDC_ISSUER');
  else if (!new URL(c.OIDC_REDIRECT_URI).pathname.endsWith('/console/auth/callback'))
    problems.push('OIDC_REDIRECT_URI must end in /console/auth/callback (the service answers there)');
  if (c.OIDC_ROLE_MAP.size === 0)
    problems.push('OIDC_ROLE_MAP is required with OIDC_ISSUER (nobody could sign in without it)');
  for (const [name, value] of [
    ['OIDC_ISSUER', c.OIDC_ISSUER],
    ['OIDC_REDIRECT_URI', c.OIDC_REDIRECT_URI],
  ] as const)
    if (value !== '' && new URL(value).protocol === 'http:' && !isLoopback(new URL(value)))
      problems.push(`${name} must be https (http only on a loopback host)`);
  if (!c.OIDC_SCOPES.split(/\s+/).includes('openid')) problems.push('OIDC_SCOPES must include openid');
  if (problems.length > 0) return { problems };
  return {
    problems,
    settings: {
      issuer: new URL(c.OIDC_ISSUER),
      clientId: c.OIDC_CLIENT_ID,
      clientSecret: c.OIDC_CLIENT_SECRET,
      redirectUri: new URL(c.OIDC_REDIRECT_URI),
      scopes: c.OIDC_SCOPES,
      rolesClaim: c.OIDC_ROLES_CLAIM,
      roleMap: c.OIDC_ROLE_MAP,
    },
  };
}

export function isLoopback(u: URL): boolean {
  return u.hostname === 'localhost' || u.hostname === '127.0.0.1' || u.hostname === '[::1]';
}
