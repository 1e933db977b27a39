import { z } from 'zod';
import { defineSection, env, envVar, type SectionValues } from '#config';
import { type WebhookIntakeSettings } from './webhook-intake.js';
import { type WebhookWorkerSettings } from './webhook-hint-worker.js';

/** The `webhooks` role (ADR 0013): the provider's status hints, verified, kept, then applied. */
export const webhooksConfig = defineSection('webhooks', {
  WEBHOOKS_PORT: envVar({
    schema: env.listenPort(),
    default: '3001',
    description:
      'Port of the webhook listener (role `webhooks`): only POST /webhooks/v1/<accountId> and /webhooks/v2/<accountId>, the one port to expose to the provider (0: any free port)',
  }),
  WEBHOOKS_REPLAY_WINDOW_MS: envVar({
    schema: env.positiveInt(),
    default: '300000',
    description:
      'v2: a webhook whose x-webhook-timestamp is further than this from our clock (either way) is refused (401, stale)',
  }),
  WEBHOOKS_V1_MAX_AGE_MS: envVar({
    schema: env.positiveInt(),
    default: '3600000',
    description:
      'v1: a verified webhook whose eventTime is older than this is not kept (answered 200, counted `untimely`): the replay bound of a scheme with no delivery timestamp. Zone-less times are India time (UTC+05:30)',
  }),
  WEBHOOKS_V1_MAX_AHEAD_MS: envVar({
    schema: env.positiveInt(),
    default: '300000',
    description:
      'v1: a verified webhook whose eventTime is further ahead of our clock than this is not kept (answered 200, counted `untimely`)',
  }),
  WEBHOOKS_REOPEN_LIMIT: envVar({
    schema: z.coerce.number().int().min(0).max(100),
    default: '2',
    description:
      'Times webhooks may reopen one REQUIRES_ATTENTION payout (back to UNKNOWN, checked now) per WEBHOOKS_REOPEN_PERIOD_MS; past it a webhook is recorded and counted (`reopen_limited`), not applied (0: webhooks never reopen)',
  }),
  WEBHOOKS_REOPEN_PERIOD_MS: envVar({
    schema: env.positiveInt(),
    default: '86400000',
    description:
      'The period of WEBHOOKS_REOPEN_LIMIT; counted from the kept webhooks, so at most WEBHOOKS_RETENTION_MS',
  }),
  WEBHOOKS_REFUSALS_PER_SOURCE: envVar({
    schema: env.positiveInt(),
    default: '20',
    description:
      'Refused deliveries (bad signature, stale, unknown account, too large) one source address may get per WEBHOOKS_REFUSALS_WINDOW_MS; after that its refusals are answered 429 with Retry-After. Deliveries that verify are never limited',
  }),
  WEBHOOKS_REFUSALS_WINDOW_MS: envVar({
    schema: env.positiveInt(),
    default: '60000',
    description: 'The window of WEBHOOKS_REFUSALS_PER_SOURCE',
  }),
  WEBHOOKS_LOG_SAMPLE_MS: envVar({
    schema: env.positiveInt(),
    default: '60000',
    description:
      'At most one warn line per account, API version and refusal reason in this interval; the next line says how many were left out (every refusal is counted in payouts_webhooks_received_total)',
  }),
  WEBHOOKS_MAX_CONNECTIONS: envVar({
    schema: z.coerce.number().int().min(1).max(65536),
    default: '256',
    description:
      'Open connections the public webhook listener accepts at once; more are closed at once (headers must arrive within 5 s, a whole request within 10 s)',
  }),
  WEBHOOKS_MAX_BODY_BYTES: envVar({
    schema: env.positiveInt(),
    default: '65536',
    description: 'Larger webhook bodies are refused (413) before any verification',
  }),
  WEBHOOKS_POLL_MS: envVar({
    schema: env.positiveInt(),
    default: '1000',
    description:
      'How often the webhook worker looks for due webhooks when no notification woke it (the backstop of LISTEN/NOTIFY)',
  }),
  WEBHOOKS_RETRY_MS: envVar({
    schema: env.positiveInt(),
    default: '500',
    description:
      'A webhook whose payout cannot take it yet (still SUBMITTING, or held by a status check) is looked at again after this',
  }),
  WEBHOOKS_GIVE_UP_MS: envVar({
    schema: env.positiveInt(),
    default: '600000',
    description:
      'A webhook still waiting this long after it arrived is dropped (counted, kept as done/expired): the reconciler polls that payout anyway',
  }),
  WEBHOOKS_UNMATCHED_RETRY_MS: envVar({
    schema: env.positiveInt(),
    default: '60000',
    description: 'A webhook for a transferId we do not know is matched again this often',
  }),
  WEBHOOKS_UNMATCHED_KEEP_MS: envVar({
    schema: env.positiveInt(),
    default: '86400000',
    description:
      'How long a webhook for an unknown transferId is matched again before it is settled as unmatched (kept until the retention ends)',
  }),
  WEBHOOKS_RETENTION_MS: envVar({
    schema: env.positiveInt(),
    default: String(7 * 86_400_000),
    description:
      'Settled webhooks are deleted after this; it is also how long a redelivery is recognised as a duplicate',
  }),
  WEBHOOKS_CONCURRENCY: envVar({
    schema: z.coerce.number().int().min(1).max(64),
    default: '8',
    description:
      'Transfers whose webhooks the worker handles side by side (the webhooks of one transfer stay in arrival order)',
  }),
  WEBHOOKS_BATCH_SIZE: envVar({
    schema: z.coerce.number().int().min(1).max(1000),
    default: '100',
    description: 'Webhooks the worker claims per round',
  }),
});

export type WebhooksConfig = SectionValues<typeof webhooksConfig.vars>;

export function webhookIntakeSettings(c: WebhooksConfig): WebhookIntakeSettings {
  return {
    replayWindowMs: c.WEBHOOKS_REPLAY_WINDOW_MS,
    maxBodyBytes: c.WEBHOOKS_MAX_BODY_BYTES,
    v1MaxAgeMs: c.WEBHOOKS_V1_MAX_AGE_MS,
    v1MaxAheadMs: c.WEBHOOKS_V1_MAX_AHEAD_MS,
    logSampleMs: c.WEBHOOKS_LOG_SAMPLE_MS,
  };
}

/** The public listener's limits (webhooks-server.ts). */
export interface WebhookListenerSettings {
  readonly refusalsPerSource: number;
  readonly refusalsWindowMs: number;
  readonly maxConnections: number;
}

export function webhookListenerSettings(c: WebhooksConfig): WebhookListenerSettings {
  return {
    refusalsPerSource: c.WEBHOOKS_REFUSALS_PER_SOURCE,
    refusalsWindowMs: c.WEBHOOKS_REFUSALS_WINDOW_MS,
    maxConnections: c.WEBHOOKS_MAX_CONNECTIONS,
  };
}

export function webhookWorkerSettings(c: WebhooksConfig): WebhookWorkerSettings {
  return {
    // Handling one webhook is a few statements: a worker holding one for 30 s is gone.
    leaseMs: 30_000,
    batchSize: c.WEBHOOKS_BATCH_SIZE,
    concurrency: c.WEBHOOKS_CONCURRENCY,
    pollMs: c.WEBHOOKS_POLL_MS,
    retryMs: c.WEBHOOKS_RETRY_MS,
    giveUpMs: c.WEBHOOKS_GIVE_UP_MS,
    unmatchedRetryMs: c.WEBHOOKS_UNMATCHED_RETRY_MS,
    unmatchedKeepMs: c.WEBHOOKS_UNMATCHED_KEEP_MS,
    retentionMs: c.WEBHOOKS_RETENTION_MS,
    reopenLimit: c.WEBHOOKS_REOPEN_LIMIT,
    // Reopens are counted from kept webhooks: a period past the retention would count too few.
    reopenPeriodMs: Math.min(c.WEBHOOKS_REOPEN_PERIOD_MS, c.WEBHOOKS_RETENTION_MS),
  };
}
