import { timingSafeEqual } from 'node:crypto';
import { verifySignature } from '../core/signature.js';
import { bearerOf } from '../core/tokens.js';
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

function signed(world: SandboxWorld, headers: Headers): boolean {
  const s = world.settings;
  return verifySignature(
    world.keys,
    headers['x-svc-signature'],
    s.clientId,
    world.clock.now(),
    s.signatureWindowSeconds,
  );
}

/**
 * The checks every legacy call passes before its handler: credentials (authorize) or bearer
 * token, then the source check (allow-listed address, a valid X-Svc-Signature, or a token that
 * was itself issued against a signature), then account enablement. Answers how the source passed.
 */
export function checkLegacyAccess(
  world: SandboxWorld,
  ep: LegacyEndpoint,
  ip: string,
  headers: Headers,
): 'ip' | 'signature' {
  const s = world.settings;
  const allowListed = world.allowedIps.includes('*') || world.allowedIps.includes(ip);
  let source: 'ip' | 'signature';
  if (ep.auth === 'credentials') {
    const ok =
      sameSecret(headers['x-client-id'], s.clientId) &&
      sameSecret(headers['x-client-secret'], s.clientSecret);
    if (!ok) fail(COMMON.badCredentials);
    if (allowListed) source = 'ip';
    else if (signed(world, headers)) source = 'signature';
    else fail(COMMON.ipNotWhitelisted);
  } else {
    const token = bearerOf(headers.authorization);
    if (token === undefined) fail(COMMON.tokenMissing);
    const claims = world.tokens.verify(token);
    if (!claims || claims.sub !== s.clientId) fail(COMMON.tokenInvalid);
    if (allowListed) source = 'ip';
    else if (claims.src === 'signature' || signed(world, headers)) source = 'signature';
    else fail(COMMON.ipNotWhitelisted);
  }
  if (world.account.flags.apisDisabled.includes(ep.id)) fail(COMMON.apisNotEnabled);
  return source;
}
