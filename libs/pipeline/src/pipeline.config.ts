import { z } from 'zod';
import { defineSection, env, envVar, type SectionValues } from '#config';
import { parseSchedule } from './shared/check-schedule.js';
import { LONG_WAIT_VARS } from './long-waits.config.js';
import { APPROVAL_VARS } from './approval/approval.config.js';
import { parseReplyTopics } from './queries/reply-topics.js';
import { keyProblem } from '#ledger';
import { BALANCE_VARS } from './funds/balance-reader.config.js';
import { FUNDS_ALERT_VARS } from './funds/funds-alerts.config.js';
import { FUNDS_HOLD_VARS } from './funds/funds-hold.config.js';

/** A development key, so `npm run demo` works out of the box. Production must set its own. */
export const DEVELOPMENT_DEAD_LETTER_DIGEST_KEY = Buffer.alloc(32, 9).toString('base64');

/** A watch's schedule (delays between checks of a settled payout): a list, or "off" for none. */
const watchSchedule = z.string().transform((s, ctx) => {
  if (s.trim() === 'off') return [];
  try {
    return parseSchedule(s);
  } catch (e) {
    ctx.addIssue({ code: 'custom', message: e instanceof Error ? e.message : 'bad schedule' });
    return z.NEVER;
  }
});
export const ROLES = ['intake', 'executor', 'reconciler', 'relay', 'queries', 'webhooks'] as const;
export type Role = (typeof ROLES)[number];

/**
 * The roles an instance runs when SERVICE_ROLES is not set: all but `webhooks`, which opens a
 * listener meant to face the provider (ADR 0013) and is therefore asked for explicitly.
 */
export const DEFAULT_ROLES: readonly Role[] = ROLES.filter((r) => r !== 'webhooks');

export const pipelineConfig = defineSection('pipeline', {
  SERVICE_ROLES: envVar({
    schema: env.list().pipe(z.array(z.enum(ROLES))),
    default: DEFAULT_ROLES.join(','),
    description: `Roles this instance runs: ${ROLES.join(', ')} (one image, scaled per role; \`webhooks\` opens WEBHOOKS_PORT and is never on by default)`,
  }),
  EXECUTOR_CONCURRENCY: envVar({
    schema: env.positiveInt(),
    default: '64',
    description: 'Provider calls in flight at once per instance',
  }),
  EXECUTOR_LEASE_MS: envVar({
    schema: env.positiveInt(),
    default: '120000',
    description:
      'How long a claimed row is held before another instance may recover it (> the longest HTTP timeout)',
  }),
  EXECUTOR_IDLE_POLL_MS: envVar({
    schema: env.positiveInt(),
    default: '200',
    description: 'Executor poll interval when idle (intake wakes it directly in the same process)',
  }),
  BATCH_IDLE_POLL_MS: envVar({
    schema: env.positiveInt(),
    default: '1000',
    description:
      'Batch submission poll interval when idle (intake wakes it directly in the same process; batches are few)',
  }),
  OUTCOME_LINGER_MS: envVar({
    schema: env.nonNegativeInt(),
    default: '3',
    description: 'How long a provider outcome waits for others to share its ledger transaction',
  }),
  OUTCOME_MAX_BATCH: envVar({
    schema: env.positiveInt(),
    default: '200',
    description: 'Most outcomes recorded in one transaction',
  }),
  MAX_SEND_ATTEMPTS: envVar({
    schema: env.positiveInt(),
    default: '10',
    description:
      'Sends of one payout or batch (the same transferId or batchTransferId) before it is handed to a person (REQUIRES_ATTENTION)',
  }),
  NOT_FOUND_SETTLE_MS: envVar({
    schema: env.positiveInt(),
    default: '3600000',
    description:
      'For kinds the provider does not deduplicate (internal transfers): how long an in-doubt payout must stay unknown to the status endpoint, from its first "not found", before it is settled FAILED (not_received_by_provider, only on accounts with `notReceivedFails`; elsewhere REQUIRES_ATTENTION not_received_unconfirmed) instead of waiting for a person. Longer than the provider may take to apply a request it received (its own notes say 10-15 minutes): 1 hour (ADR 0018); the FAILED is then watched (FAILED_WATCH_SCHEDULE)',
  }),
  REFUSED_RESEND_SETTLE_MS: envVar({
    schema: env.positiveInt(),
    default: '3600000',
    description:
      'A re-send the provider refused while an earlier attempt may have reached it (refused_on_resend): how long its status is asked about before it is REQUIRES_ATTENTION (alert PayoutRefusedOnResend). As NOT_FOUND_SETTLE_MS: longer than the provider may take to show a request it received (1 hour); it is never sent again nor settled on "not found" (issue 29)',
  }),
  RESEND_DELAY_MS: envVar({
    schema: env.nonNegativeInt(),
    default: '5000',
    description: 'Delay before re-sending a request the provider did not process (rate limit, token refresh)',
  }),
  FATAL_CONFIG_RETRY_MS: envVar({
    schema: env.positiveInt(),
    default: '60000',
    description: 'Delay before trying again after the provider refused our credentials or address',
  }),
  RECONCILE_SCHEDULE: envVar({
    schema: z.string().transform((s, ctx) => {
      try {
        return parseSchedule(s);
      } catch (e) {
        ctx.addIssue({ code: 'custom', message: e instanceof Error ? e.message : 'bad schedule' });
        return z.NEVER;
      }
    }),
    default: '30s,1m,2m,5m,10m,30m,1h,2h,4h,8h',
    description:
      'Delays between status checks of an unclear payout; past the last one it becomes REQUIRES_ATTENTION',
  }),
  REVERSAL_WATCH_SCHEDULE: envVar({
    schema: watchSchedule,
    default: '1h,6h,24h',
    description:
      'Reversal watch: delays between status checks of a SUCCESS payout (legacy transfer kinds), in case the bank reverses it; past the last one the watch stops. "off" disables it',
  }),
  REVERSAL_WATCH_WORKING_DAYS: envVar({
    schema: env.nonNegativeInt().refine((n) => n <= 30, 'at most 30 working days'),
    default: '5',
    description:
      "Reversal watch in working days (issue 29): past REVERSAL_WATCH_SCHEDULE, a SUCCESS payout is asked again at the schedule's last delay until this many working days of the account's bank calendar (BANK_CALENDAR, LONG_WAIT_ACCOUNTS) have passed since it was paid: banks return credits days later, and weekends and bank holidays hold them. 0: the schedule alone decides",
  }),
  FAILED_WATCH_SCHEDULE: envVar({
    schema: watchSchedule,
    default: '15m,1h,3h,6h,24h,48h,72h,72h,96h',
    description:
      'Failed watch (ADR 0018): delays between status checks of every FAILED, REJECTED or REVERSED payout, and of a completed batch with such entries, of a kind the provider can be asked about; the first follows the move (set by the ledger). A later SUCCESS or PENDING is a contradiction (event, metric, alert, queue), never applied. Default: 9 checks over 13.4 days, past the provider\'s longest documented hold (a transfer queued for low balance, up to 10 days) plus a long weekend, as banks reverse and settle days later. Past the last one the watch stops. "off" disables it',
  }),
  RECONCILER_POLL_MS: envVar({
    schema: env.positiveInt(),
    default: '1000',
    description: 'How often the reconciler looks for due rows',
  }),
  RECONCILER_BATCH_SIZE: envVar({
    schema: env.positiveInt(),
    default: '200',
    description: 'Rows claimed per reconciler round',
  }),
  RECONCILER_CONCURRENCY: envVar({
    schema: env.positiveInt(),
    default: '16',
    description:
      'Status calls in flight at once per instance (kept below the executor so new payouts are not starved)',
  }),
  MAX_COMMAND_BYTES: envVar({
    schema: env.positiveInt(),
    default: String(512 * 1024),
    description: 'Commands larger than this are dead-lettered (reason oversized)',
  }),
  DEAD_LETTER_DIGEST_KEY: envVar({
    schema: z.string().superRefine((v, ctx) => {
      const problem = keyProblem(v);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    }),
    default: DEVELOPMENT_DEAD_LETTER_DIGEST_KEY,
    description:
      "Key (base64, 32 bytes) of a dead letter's `dlq-original-hmac-sha256`, the HMAC-SHA-256 of the original bytes (ADR 0007): an operator holding it matches a producer's copy; without it nothing of what the dead letter masks can be recovered by trying candidates. Its own key, not the ledger's: it may be handed to whoever matches dead letters",
    sensitive: true,
  }),
  QUERY_REPLY_TOPICS: envVar({
    schema: z.string().transform((s, ctx) => {
      const { topics, problems } = parseReplyTopics(s);
      for (const message of problems) ctx.addIssue({ code: 'custom', message });
      return problems.length > 0 ? z.NEVER : topics;
    }),
    default: 'payouts.query-replies',
    description:
      "Where a query's `replyTo` may send its reply: comma-separated logical topic names, each exact or a prefix ending in `*` (`replies.*`), under KAFKA_TOPIC_PREFIX. Never the service's own topics (commands, events, queries, dead letters): the boot refuses an entry that would allow one. A query naming another topic is dead-lettered (reason reply_topic_refused) and nothing is asked of the provider",
  }),
  QUERY_ANSWERS_KEEP_MS: envVar({
    schema: env.positiveInt(),
    default: '604800000',
    description:
      'How long the recorded answer of a query with side effects (beneficiary.create, beneficiary.delete, query.sdk_token; sealed with LEDGER_ENCRYPTION_KEY) is kept: the same request id asked again within it gets that answer, and the provider is not called again. Default 7 days',
  }),
  // The provider's long waits and the attention watch (issue 29).
  ...LONG_WAIT_VARS,
  ...APPROVAL_VARS,
  ...BALANCE_VARS,
  ...FUNDS_ALERT_VARS,
  ...FUNDS_HOLD_VARS,
});

export type PipelineConfig = SectionValues<typeof pipelineConfig.vars>;
