import { z } from 'zod';
import { defineSection, env, envVar, type SectionValues } from '#config';

const allowList = z.string().transform((v) =>
  v.trim() === 'none'
    ? []
    : v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
);

const amount = z.string().regex(/^\d{1,13}(\.\d{1,2})?$/, 'an amount like 1000000.00');

const merchantSchema = z
  .object({
    clientId: z.string().min(1),
    clientSecret: z.string().min(1),
    webhookUrl: env.url(['http', 'https']).optional(),
    webhookVersion: env.enumOf(['v1', 'v2']).optional(),
    initialBalance: amount.optional(),
    transferCharge: amount.optional(),
  })
  .strict();

/** A JSON array of merchants; an error names paths only (the value holds client secrets). */
const merchantList = z.string().transform((raw, ctx) => {
  if (raw.trim() === '') return [];
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    ctx.addIssue({ code: 'custom', message: 'must be a JSON array' });
    return z.NEVER;
  }
  const p = z.array(merchantSchema).safeParse(value);
  if (!p.success) {
    ctx.addIssue({
      code: 'custom',
      message: p.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '),
    });
    return z.NEVER;
  }
  const ids = p.data.map((m) => m.clientId);
  if (new Set(ids).size !== ids.length) {
    ctx.addIssue({ code: 'custom', message: 'clientId: each merchant needs its own' });
    return z.NEVER;
  }
  return p.data;
});

/** Variables of the provider sandbox (the port is SANDBOX_PORT in #config's provider-hosts). */
export const sandboxConfig = defineSection('provider-sandbox', {
  SANDBOX_HOST: envVar({
    schema: env.string(),
    default: '0.0.0.0',
    description: 'Address the sandbox listens on',
  }),
  SANDBOX_CLIENT_ID: envVar({
    schema: env.string(),
    default: 'sandbox_client_id',
    description: 'Client id the sandbox accepts',
  }),
  SANDBOX_CLIENT_SECRET: envVar({
    schema: env.string(),
    default: 'sandbox_client_secret',
    description: 'Client secret the sandbox accepts',
    sensitive: true,
  }),
  SANDBOX_MERCHANTS: envVar({
    schema: merchantList,
    default: '',
    description:
      'Optional JSON array of more merchants {clientId, clientSecret, webhookUrl?, webhookVersion?, initialBalance?, transferCharge?}, each with its own transfers, balance, tokens and webhooks (version default: SANDBOX_WEBHOOK_VERSION; balance: SANDBOX_INITIAL_BALANCE; charge: SANDBOX_TRANSFER_CHARGE)',
    sensitive: true,
  }),
  SANDBOX_ALLOWED_IPS: envVar({
    schema: allowList,
    default: '127.0.0.1,::1,::ffff:127.0.0.1',
    description: "Allow-listed source addresses for legacy calls; 'none' (or empty) allows none",
  }),
  SANDBOX_PRIVATE_KEY_FILE: envVar({
    schema: z.string(),
    default: '',
    description: 'PEM RSA private key for X-Svc-Signature; generated at start when unset',
  }),
  SANDBOX_TOKEN_TTL_SECONDS: envVar({
    schema: env.positiveInt(),
    default: '360',
    description: 'Lifetime of a legacy bearer token',
  }),
  SANDBOX_SIGNATURE_WINDOW_SECONDS: envVar({
    schema: env.positiveInt(),
    default: '300',
    description: 'How far an X-Svc-Signature timestamp may be from the sandbox clock',
  }),
  SANDBOX_PENDING_DELAY_MS: envVar({
    schema: env.nonNegativeInt(),
    default: '60000',
    description: "Sandbox-clock delay before a 'pending, then X' transfer resolves",
  }),
  SANDBOX_HANG_MS: envVar({
    schema: env.nonNegativeInt(),
    default: '25000',
    description: "Sandbox-clock delay of the '25 s with no answer, then success' account",
  }),
  SANDBOX_BATCH_DELAY_MS: envVar({
    schema: env.nonNegativeInt(),
    default: '5000',
    description: 'Sandbox-clock delay before batch entries are processed',
  }),
  SANDBOX_ACKNOWLEDGE_DELAY_MS: envVar({
    schema: env.nonNegativeInt(),
    default: '5000',
    description: 'Sandbox-clock delay from a v2 SUCCESS SENT_TO_BENEFICIARY to SUCCESS COMPLETED',
  }),
  SANDBOX_LATE_REVERSAL_MS: envVar({
    schema: env.nonNegativeInt(),
    default: '259200000',
    description: "Sandbox-clock delay from SUCCESS to REVERSED of the 'reversal days later' account (3 days)",
  }),
  SANDBOX_WEEKEND_DAYS: envVar({
    schema: z.string().regex(/^([0-6](,[0-6])*)?$/, 'days of the week, 0 (Sunday) to 6, comma-separated'),
    default: '0,6',
    description: 'Days banks are closed (0 = Sunday), for the next working day',
  }),
  SANDBOX_HOLIDAYS: envVar({
    schema: z
      .string()
      .regex(/^(\d{4}-\d{2}-\d{2}(,\d{4}-\d{2}-\d{2})*)?$/, 'yyyy-mm-dd days, comma-separated'),
    default: '',
    description: 'Bank holidays (India days, yyyy-mm-dd, comma-separated), for the next working day',
  }),
  SANDBOX_INITIAL_BALANCE: envVar({
    schema: z.string().regex(/^\d{1,13}(\.\d{1,2})?$/, 'an amount like 1000000.00'),
    default: '10000000.00',
    description: 'Starting account balance (INR)',
  }),
  SANDBOX_TRANSFER_CHARGE: envVar({
    schema: z.string().regex(/^\d{1,13}(\.\d{1,2})?$/, 'an amount like 3.00'),
    default: '0.00',
    description:
      'Service charge per payout (INR), taken from the balance with the amount, plus 18 % GST on it; 0.00 charges nothing',
  }),
  SANDBOX_RATE_LIMIT_TRANSFER: envVar({
    schema: env.nonNegativeInt(),
    default: '9000',
    description: 'Requests per minute per transfer endpoint; 0 disables',
  }),
  SANDBOX_RATE_LIMIT_STATUS: envVar({
    schema: env.nonNegativeInt(),
    default: '7800',
    description: 'Requests per minute per status endpoint; 0 disables',
  }),
  SANDBOX_RATE_LIMIT_AUTHORIZE: envVar({
    schema: env.nonNegativeInt(),
    default: '3000',
    description: 'Authorize calls per minute; 0 disables',
  }),
  SANDBOX_RATE_LIMIT_OTHER: envVar({
    schema: env.nonNegativeInt(),
    default: '3000',
    description: 'Requests per minute for every other endpoint; 0 disables',
  }),
  SANDBOX_RATE_WINDOW_MS: envVar({
    schema: env.positiveInt(),
    default: '60000',
    description:
      "Length of the fixed rate-limit windows (the provider's: a minute); shorter allows the same share per window (tests, benchmarks)",
  }),
  SANDBOX_BODY_LIMIT_BYTES: envVar({
    schema: env.positiveInt(),
    default: '1048576',
    description: 'Largest accepted request body',
  }),
  SANDBOX_WEBHOOK_URL: envVar({
    schema: env.url(['http', 'https']).or(z.literal('')),
    default: '',
    description: 'Where the sandbox sends webhooks (unset: none are sent)',
  }),
  SANDBOX_WEBHOOK_VERSION: envVar({
    schema: env.enumOf(['v1', 'v2']),
    default: 'v2',
    description:
      'Webhook format: v1 (form-encoded, field signature) or v2 (JSON, timestamp + body signature)',
  }),
  SANDBOX_WEBHOOK_TIMEOUT_MS: envVar({
    schema: env.positiveInt(),
    default: '5000',
    description: 'A webhook attempt counts as delivered only on a 2xx within this time',
  }),
  SANDBOX_WEBHOOK_RETRY_BASE_MS: envVar({
    schema: env.nonNegativeInt(),
    default: '10000',
    description: 'Sandbox-clock wait before the second attempt of a failed webhook; doubles per attempt',
  }),
  SANDBOX_WEBHOOK_MAX_ATTEMPTS: envVar({
    schema: env.positiveInt(),
    default: '6',
    description: 'Attempts per webhook, the first included',
  }),
  SANDBOX_LOW_BALANCE_THRESHOLD: envVar({
    schema: z.string().regex(/^\d{1,13}(\.\d{1,2})?$/, 'an amount like 10000.00'),
    default: '10000.00',
    description: 'LOW_BALANCE_ALERT webhook (v1) when the balance falls below this (INR)',
  }),
  SANDBOX_LOG_LEVEL: envVar({
    schema: env.enumOf(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']),
    default: 'info',
    description: 'Sandbox log level (requests are not logged on the hot path)',
  }),
});

export type SandboxConfig = SectionValues<typeof sandboxConfig.vars>;
