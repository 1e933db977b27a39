import { z } from 'zod';
import { defineSection, env, envVar, type SectionValues } from '#config';
import { ENDPOINT_NAMES, isEndpointName } from './endpoints/adapter-registry.js';
import { PROVIDER_APIS } from '#contracts';

const API_VERSION = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be YYYY-MM-DD');
const generation = z.enum(PROVIDER_APIS);

const accountSchema = z.object({
  accountId: z.string().min(1),
  clientId: z.string().min(1),
  clientSecret: z.string().min(1),
  publicKey: z.string().min(1).optional(),
  publicKeyFile: z.string().min(1).optional(),
  /** The API generation its new payouts and batches are sent on (default v1). */
  api: generation.optional(),
  /** x-api-version of its v2 calls (default PROVIDER_API_VERSION). */
  apiVersion: API_VERSION.optional(),
  /** Pins its webhooks to one version (the other is refused); unset: both are taken. */
  webhookVersion: generation.optional(),
  /**
   * The operator confirmed with the provider that its status endpoint knows this account's
   * internal transfers: one still unknown to it after NOT_FOUND_SETTLE_MS is FAILED
   * (not_received_by_provider). Default false: a person decides (issue 29).
   */
  notReceivedFails: z.boolean().optional(),
});

const timeoutOverride = z.object({
  connectMs: z.number().int().positive().optional(),
  headersMs: z.number().int().positive().optional(),
  bodyMs: z.number().int().positive().optional(),
});

const jsonOf = <T>(schema: z.ZodType<T>) =>
  z.string().transform((raw, ctx): T => {
    if (raw.trim() === '') return schema.parse(undefined);
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      ctx.addIssue({ code: 'custom', message: 'must be JSON' });
      return z.NEVER;
    }
    const p = schema.safeParse(value);
    if (!p.success) {
      // Issue paths only: the value may hold client secrets.
      ctx.addIssue({
        code: 'custom',
        message: p.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '),
      });
      return z.NEVER;
    }
    return p.data;
  });

const optional = () => z.string();

/** Provider client variables. Hosts come from the `provider-hosts` section (#config). */
export const providerClientConfig = defineSection('provider-client', {
  PROVIDER_ACCOUNT_ID: envVar({
    schema: env.string(),
    default: 'default',
    description: 'Account id of the single account configured by PROVIDER_CLIENT_ID/SECRET',
  }),
  PROVIDER_CLIENT_ID: envVar({
    schema: env.string(),
    default: 'sandbox_client_id',
    description: 'Provider client id (X-Client-Id / x-client-id)',
  }),
  PROVIDER_CLIENT_SECRET: envVar({
    schema: env.string(),
    default: 'sandbox_client_secret',
    description: 'Provider client secret',
    sensitive: true,
  }),
  PROVIDER_PUBLIC_KEY_FILE: envVar({
    schema: optional(),
    default: '',
    description: 'Path to the PEM public key for X-Svc-Signature (optional)',
  }),
  PROVIDER_PUBLIC_KEY: envVar({
    schema: optional(),
    default: '',
    description: 'PEM public key for X-Svc-Signature, `\\n` escapes allowed (optional)',
  }),
  PROVIDER_ACCOUNTS: envVar({
    schema: jsonOf(z.array(accountSchema).optional()),
    default: '',
    description:
      'Optional JSON array of {accountId, clientId, clientSecret, publicKey?, publicKeyFile?, api? (v1|v2, default v1), apiVersion? (x-api-version, default PROVIDER_API_VERSION), webhookVersion? (v1|v2: only that webhook version is taken; unset: both), notReceivedFails? (default false: see PROVIDER_NOT_RECEIVED_FAILS)}; adds accounts. Each account needs its own client secret (it also keys its webhook signatures): the boot refuses two accounts sharing one',
    sensitive: true,
  }),
  PROVIDER_API_VERSION: envVar({
    schema: API_VERSION,
    default: '2024-01-01',
    description: 'x-api-version sent on v2 calls (an account of PROVIDER_ACCOUNTS may set its own)',
  }),
  PROVIDER_API_GENERATION: envVar({
    schema: generation,
    default: 'v1',
    description:
      'API generation new payouts and batches of the primary account are sent on: standard_transfer, direct_transfer and batch_transfer go to Transfers V2 on v2. Each payout keeps the generation it was accepted on',
  }),
  PROVIDER_WEBHOOK_VERSION: envVar({
    schema: z.union([z.literal(''), generation]),
    default: '',
    description:
      "Pins the primary account's webhooks to one version (v1|v2): deliveries in the other are refused (404). Empty: both are taken",
  }),
  PROVIDER_NOT_RECEIVED_FAILS: envVar({
    schema: env.boolean(),
    default: 'false',
    description:
      'The primary account\'s `notReceivedFails`: true only once the operator has confirmed with the provider that its status endpoint knows internal transfers (only the sandbox says so). Then an internal transfer still unknown to it NOT_FOUND_SETTLE_MS after its first "not found" is FAILED (not_received_by_provider, watched); false: REQUIRES_ATTENTION (not_received_unconfirmed), a person asks the provider',
  }),
  PROVIDER_CONNECT_TIMEOUT_MS: envVar({
    schema: env.positiveInt(),
    default: '3000',
    description: 'TCP/TLS connect timeout',
  }),
  PROVIDER_HEADERS_TIMEOUT_MS: envVar({
    schema: env.positiveInt(),
    default: '15000',
    description: 'Time to the response headers, non-transfer endpoints',
  }),
  PROVIDER_TRANSFER_HEADERS_TIMEOUT_MS: envVar({
    schema: env.positiveInt(),
    default: '40000',
    description: 'Time to the response headers for synchronous transfers (the bank may take 25 s+)',
  }),
  PROVIDER_BODY_TIMEOUT_MS: envVar({
    schema: env.positiveInt(),
    default: '15000',
    description: 'Idle time allowed between body chunks',
  }),
  PROVIDER_ENDPOINT_TIMEOUTS: envVar({
    schema: jsonOf(
      z
        .record(z.string(), timeoutOverride)
        .superRefine((r, ctx) => {
          for (const k of Object.keys(r).filter((k) => !isEndpointName(k))) {
            ctx.addIssue({
              code: 'custom',
              message: `${k} is not an endpoint: use one of ${ENDPOINT_NAMES.join(', ')}`,
            });
          }
        })
        .optional(),
    ),
    default: '',
    description: `Optional JSON {"<endpointName>": {connectMs?, headersMs?, bodyMs?}} overriding the defaults; endpoint names (from the adapter registry): ${ENDPOINT_NAMES.join(', ')}`,
  }),
  TOKEN_REFRESH_MARGIN_S: envVar({
    schema: env.nonNegativeInt(),
    default: '60',
    description: 'Re-authorize this many seconds before the bearer token expires',
  }),
  PROVIDER_RATE_TRANSFER_PER_MIN: envVar({
    schema: env.positiveInt(),
    default: '9000',
    description: "Per account and endpoint: transfer initiations per minute (the provider's limit)",
  }),
  PROVIDER_RATE_STATUS_PER_MIN: envVar({
    schema: env.positiveInt(),
    default: '7800',
    description: 'Per account and endpoint: status queries per minute',
  }),
  PROVIDER_RATE_AUTHORIZE_PER_MIN: envVar({
    schema: env.positiveInt(),
    default: '3000',
    description: 'Per account: authorize calls per minute',
  }),
  PROVIDER_RATE_BALANCE_PER_MIN: envVar({
    schema: env.positiveInt(),
    default: '3000',
    description: "Per account: balance reads (Get Balance) per minute (the provider's limit)",
  }),
  PROVIDER_RATE_DEFAULT_PER_MIN: envVar({
    schema: env.positiveInt(),
    default: '1000',
    description: 'Per account and endpoint: other endpoints per minute',
  }),
  PROVIDER_RATE_TARGET_FRACTION: envVar({
    schema: z.coerce.number().gt(0).max(1),
    default: '0.99',
    description:
      'Share of the PROVIDER_RATE_* limits the client sends at (0 < f <= 1): just under the limit, so no 429',
  }),
  PROVIDER_RATE_WINDOW_MS: envVar({
    schema: env.positiveInt(),
    default: '60000',
    description:
      "The provider's counting window for the PROVIDER_RATE_* limits (a minute): after idle, a burst goes at once as long as no such window can exceed the limit",
  }),
  PROVIDER_RATE_BUDGET: envVar({
    schema: env.enumOf(['postgres', 'memory']),
    default: 'postgres',
    description:
      "Where the rate budget lives: `postgres` (shared by every instance on the database: the limit is the account's) or `memory` (this process only)",
  }),
  PROVIDER_RATE_BUDGET_BLOCK_MS: envVar({
    schema: env.positiveInt(),
    default: '100',
    description:
      'Shared budget: the most one reservation books, in time at the full rate (under load, one statement per this many ms of sends)',
  }),
  PROVIDER_RATE_BUDGET_HORIZON_MS: envVar({
    schema: env.positiveInt(),
    default: '500',
    description:
      'Shared budget: how far ahead a slot may be booked (a 429 pause reaches every instance within about this; at least the block)',
  }),
  PROVIDER_MAX_ATTEMPTS: envVar({
    schema: env.positiveInt(),
    default: '3',
    description: 'Attempts for retry-safe outcomes (never sent, or rate-limited)',
  }),
  PROVIDER_RETRY_BASE_MS: envVar({
    schema: env.positiveInt(),
    default: '200',
    description: 'First backoff step; doubles per attempt, with jitter',
  }),
  PROVIDER_RETRY_MAX_MS: envVar({ schema: env.positiveInt(), default: '5000', description: 'Backoff cap' }),
  PROVIDER_MAX_RATE_LIMIT_WAIT_MS: envVar({
    schema: env.nonNegativeInt(),
    default: '60000',
    description: 'Longest wait for a rate limit before answering retry-safe',
  }),
});

export type ProviderClientConfig = SectionValues<typeof providerClientConfig.vars>;
export type ProviderAccountConfig = z.infer<typeof accountSchema>;
export type EndpointTimeoutOverrides = Readonly<Record<string, z.infer<typeof timeoutOverride>>>;

/**
 * Accounts that share a client secret, one sentence per group, naming account ids only (issue
 * 30). The client secret is also the key of the account's webhook signatures (v1 and v2): with
 * one shared, a webhook signed for account A verifies on B's path too, and a configuration that
 * does it is refused at boot. Counted as the client builds its accounts: an entry of
 * PROVIDER_ACCOUNTS with the primary's id replaces the primary.
 */
export function sharedSecretProblems(
  c: Pick<ProviderClientConfig, 'PROVIDER_ACCOUNT_ID' | 'PROVIDER_CLIENT_SECRET' | 'PROVIDER_ACCOUNTS'>,
): string[] {
  const secretOf = new Map<string, string>([[c.PROVIDER_ACCOUNT_ID, c.PROVIDER_CLIENT_SECRET]]);
  for (const a of c.PROVIDER_ACCOUNTS ?? []) secretOf.set(a.accountId, a.clientSecret);
  const bySecret = new Map<string, string[]>();
  for (const [accountId, secret] of secretOf)
    bySecret.set(secret, [...(bySecret.get(secret) ?? []), accountId]);
  return [...bySecret.values()]
    .filter((ids) => ids.length > 1)
    .map((ids) => {
      const named = `${ids.slice(0, -1).join(', ')} and ${ids.at(-1) ?? ''}`;
      return `PROVIDER_ACCOUNTS: accounts ${named} share a client secret, which is also their webhook signing key: a webhook signed for one would verify on the other's path. Give each account its own provider credentials`;
    });
}
