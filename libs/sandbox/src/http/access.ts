import { timingSafeEqual } from 'node:crypto';
import { verifySignature } from '../core/signature.js';
import { type Merchant } from '../core/merchant.js';
import { bearerOf, unverifiedSubject } from '../core/tokens.js';
import { type SandboxWorld } from '../core/world.js';
import { type LegacyEndpoint } from '../handlers/endpoint.js';
import { COMMON } from '../tables/common.table.js';
import { fail } from '../tables/row.js';

type Headers = Readonly<Record<string, string | string[] | undefined>>;

export function sameSecret(given: string | string[] | undefined, expected: string): boolean {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * The merchant a request is served for: the one its client id names (authorize, v2) or its bearer
 * token's subject. Unknown or absent: the first merchant, whose checks then refuse it exactly as
 * a sandbox with one merchant does.
 */
export function merchantOfRequest(
  world: SandboxWorld,
  auth: 'credentials' | 'bearer',
  headers: Headers,
): Merchant {
  let clientId: string | undefined;
  if (auth === 'credentials') {
    const given = headers['x-client-id'];
    clientId = typeof given === 'string' ? given : undefined;
  } else {
    const token = bearerOf(headers.authorization);
    clientId = token === undefined ? undefined : unverifiedSubject(token);
  }
  return (clientId === undefined ? undefined : world.merchantById(clientId)) ?? world.firstMerchant;
}

function signed(world: SandboxWorld, headers: Headers): boolean {
  return verifySignature(
    world.keys,
    headers['x-svc-signature'],
    world.merchant.clientId,
    world.clock.now(),
    world.settings.signatureWindowSeconds,
  );
}

/**
 * The checks every legacy call passes before its handler, against the request's merchant
 * (`merchantOfRequest`, already current): credentials (authorize) or bearer token, then the source check (allow-listed address, a valid X-Svc-Signature, or a token that
 * was itself issued against a signature), then account enablement. Answers how the source passed.
 */
export function checkLegacyAccess(
  world: SandboxWorld,
  ep: LegacyEndpoint,
  ip: string,
  headers: Headers,
): 'ip' | 'signature' {
  const m = world.merchant;
  const allowListed = m.allowedIps.includes('*') || m.allowedIps.includes(ip);
  let source: 'ip' | 'signature';
  if (ep.auth === 'credentials') {
    const ok =
      sameSecret(headers['x-client-id'], m.clientId) &&
      sameSecret(headers['x-client-secret'], m.clientSecret);
    if (!ok) fail(COMMON.badCredentials);
    if (allowListed) source = 'ip';
    else if (signed(world, headers)) source = 'signature';
    else fail(COMMON.ipNotWhitelisted);
  } else {
    const token = bearerOf(headers.authorization);
    if (token === undefined) fail(COMMON.tokenMissing);
    const claims = m.tokens.verify(token);
    if (!claims || claims.sub !== m.clientId) fail(COMMON.tokenInvalid);
    if (allowListed) source = 'ip';
    else if (claims.src === 'signature' || signed(world, headers)) source = 'signature';
    else fail(COMMON.ipNotWhitelisted);
  }
  if (m.account.flags.apisDisabled.includes(ep.id)) fail(COMMON.apisNotEnabled);
  return source;
}
