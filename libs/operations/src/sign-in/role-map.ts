import { z } from 'zod';
import { OPERATOR_ROLES, type OperatorRole } from '../operators.js';

/** Claim value (a group name, a group's id, an app role) -> the service's role. */
export type RoleMap = ReadonlyMap<string, OperatorRole>;

/**
 * OIDC_ROLE_MAP: `value=role,…`. The role is after the last `=`, so a value may hold `=` itself
 * (an LDAP-style group name). Empty is an empty map (then nobody may sign in with the provider).
 */
export const roleMapSchema = z.string().transform((raw, ctx): RoleMap => {
  const map = new Map<string, OperatorRole>();
  raw
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0)
    .forEach((entry, i) => {
      const at = entry.lastIndexOf('=');
      const value = entry.slice(0, at).trim();
      const role = entry.slice(at + 1).trim();
      if (at <= 0 || value.length === 0)
        ctx.addIssue({ code: 'custom', message: `entry ${i + 1} is not claim-value=role` });
      else if (!(OPERATOR_ROLES as readonly string[]).includes(role))
        ctx.addIssue({
          code: 'custom',
          message: `entry ${i + 1} (${value}): role must be one of ${OPERATOR_ROLES.join(', ')}`,
        });
      else if (map.has(value)) ctx.addIssue({ code: 'custom', message: `${value} is mapped twice` });
      else map.set(value, role as OperatorRole);
    });
  return map;
});

/**
 * The claim's value: the claim of that exact name (`groups`, `roles`, or a URL-named custom claim
 * as Okta and Auth0 write them), else a dotted path into nested claims (Keycloak's
 * `realm_access.roles`).
 */
export function claimAt(claims: Readonly<Record<string, unknown>>, name: string): unknown {
  if (Object.hasOwn(claims, name)) return claims[name];
  let at: unknown = claims;
  for (const part of name.split('.')) {
    if (typeof at !== 'object' || at === null || Array.isArray(at) || !Object.hasOwn(at, part))
      return undefined;
    at = (at as Record<string, unknown>)[part];
  }
  return at;
}

/**
 * The highest of the service's roles the claim maps to, or undefined (refused: no mapped role).
 * The claim may be one string or a list of strings; anything else maps to nothing.
 */
export function roleFromClaims(
  claims: Readonly<Record<string, unknown>>,
  claimName: string,
  map: RoleMap,
): OperatorRole | undefined {
  const value = claimAt(claims, claimName);
  const values = typeof value === 'string' ? [value] : Array.isArray(value) ? value : [];
  let best = -1;
  for (const v of values) {
    if (typeof v !== 'string') continue;
    const role = map.get(v);
    if (role) best = Math.max(best, OPERATOR_ROLES.indexOf(role));
  }
  return best < 0 ? undefined : OPERATOR_ROLES[best];
}
