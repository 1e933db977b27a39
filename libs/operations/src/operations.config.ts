import { z } from 'zod';
import { defineSection, env, envVar, type SectionValues } from '#config';
import { OPERATOR_ROLES, type OperatorIdentity, type OperatorRole } from './operators.js';

const ENTRY = /^([A-Za-z0-9._-]{1,64}):([a-z]+):(.*)$/;
const SHA256_HEX = /^[0-9a-f]{64}$/;

/**
 * `id:role:sha256,…`. Each token is configured as its SHA-256 (64 lowercase hex digits), never in
 * clear: anything else (a token pasted by mistake) fails the boot, and the message never repeats
 * the value. Empty (the default) turns the API off.
 */
const operatorsSchema = z.string().transform((raw, ctx): OperatorIdentity[] => {
  const entries = raw
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
  const out: OperatorIdentity[] = [];
  entries.forEach((e, i) => {
    const m = ENTRY.exec(e);
    if (!m) {
      ctx.addIssue({ code: 'custom', message: `entry ${i + 1} is not id:role:sha256` });
      return;
    }
    const [, id, role, hash] = m as unknown as [string, string, string, string];
    if (!(OPERATOR_ROLES as readonly string[]).includes(role))
      ctx.addIssue({
        code: 'custom',
        message: `entry ${i + 1} (${id}): role must be one of ${OPERATOR_ROLES.join(', ')}`,
      });
    else if (!SHA256_HEX.test(hash))
      ctx.addIssue({
        code: 'custom',
        message: `entry ${i + 1} (${id}): the token must be given as its SHA-256, 64 lowercase hex digits (npm run ops:token), never in clear`,
      });
    else out.push({ id, role: role as OperatorRole, tokenSha256: hash });
  });
  const ids = new Set(out.map((o) => o.id));
  if (ids.size !== out.length) ctx.addIssue({ code: 'custom', message: 'operator ids must be unique' });
  if (new Set(out.map((o) => o.tokenSha256)).size !== out.length)
    ctx.addIssue({ code: 'custom', message: 'two operators share a token: each needs their own' });
  return out;
});

/** Variables of the operations API. Documented in docs/CONFIGURATION.md ("Operations API"). */
export const operationsConfig = defineSection('operations', {
  OPS_OPERATORS: envVar({
    schema: operatorsSchema,
    default: '',
    description:
      "Operators of the operations API (/ops/...): `id:role:sha256,…`, role viewer, operator or approver, the SHA-256 (hex) of each one's own bearer token (`npm run ops:token`). With OpenID Connect sign-in (OIDC_ISSUER) and issued tokens, these are for bootstrap and break-glass. Empty, with OIDC_ISSUER empty too, turns the API off (every /ops path answers 404)",
    sensitive: true,
  }),
  OPS_AUTH_FAILURE_LIMIT: envVar({
    schema: env.positiveInt(),
    default: '10',
    description:
      'Failed sign-ins to the operations API one source address may make in OPS_AUTH_FAILURE_WINDOW_MS; past it every request from that address is 429 with Retry-After until the window ends (other addresses are not affected)',
  }),
  OPS_AUTH_FAILURE_WINDOW_MS: envVar({
    schema: env.positiveInt(),
    default: '60000',
    description:
      "The window of OPS_AUTH_FAILURE_LIMIT, from a source's first failed sign-in; a success does not reset it",
  }),
  OPS_AUTH_LOG_INTERVAL_MS: envVar({
    schema: env.positiveInt(),
    default: '60000',
    description:
      'Failed sign-ins are logged at most once per source address per interval; the next line says how many were left out (all are counted in payouts_ops_auth_failures_total)',
  }),
});

export type OperationsConfig = SectionValues<typeof operationsConfig.vars>;
