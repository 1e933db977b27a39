import { defineSection, env, envVar, type SectionValues } from '#config';

/** Variables of the outbox relay. Documented in docs/CONFIGURATION.md ("Outbox relay"). */
export const outboxConfig = defineSection('outbox', {
  OUTBOX_BATCH_SIZE: envVar({
    schema: env.positiveInt(),
    default: '500',
    description: 'Most key heads the relay claims and sends in one round',
  }),
  OUTBOX_POLL_INTERVAL_MS: envVar({
    schema: env.positiveInt(),
    default: '1000',
    description: 'Fallback poll interval when no LISTEN/NOTIFY wake-up arrives',
  }),
  OUTBOX_MAX_ATTEMPTS: envVar({
    schema: env.positiveInt(),
    default: '15',
    description: 'Failed sends of one row before it becomes dead (blocking only its key)',
  }),
  OUTBOX_RETRY_BASE_MS: envVar({
    schema: env.positiveInt(),
    default: '500',
    description: 'First retry delay of a failed row; doubles per attempt',
  }),
  OUTBOX_RETRY_MAX_MS: envVar({
    schema: env.positiveInt(),
    default: '300000',
    description: 'Upper bound of the retry delay of a failed row',
  }),
  OUTBOX_MAX_MESSAGE_BYTES: envVar({
    schema: env.positiveInt(),
    default: '1000000',
    description: "Rows larger than this fail without being sent (keep below the broker's message.max.bytes)",
  }),
  OUTBOX_SEND_TIMEOUT_MS: envVar({
    schema: env.positiveInt(),
    default: '30000',
    description: 'How long the broker may take to acknowledge a batch (acks=all)',
  }),
  OUTBOX_RETENTION_HOURS: envVar({
    schema: env.nonNegativeInt(),
    default: '0',
    description:
      'Hours a published row is kept (then purged); 0: deleted as it is published (the fastest; events live on the topic)',
  }),
  OUTBOX_PURGE_INTERVAL_MS: envVar({
    schema: env.positiveInt(),
    default: '60000',
    description: 'How often the purge job runs',
  }),
  OUTBOX_PURGE_BATCH_SIZE: envVar({
    schema: env.positiveInt(),
    default: '5000',
    description: 'Rows deleted per purge statement (bounded, so purging never holds long locks)',
  }),
});

export type OutboxConfig = SectionValues<typeof outboxConfig.vars>;

export interface OutboxRelaySettings {
  readonly batchSize: number;
  readonly pollIntervalMs: number;
  readonly maxAttempts: number;
  readonly retryBaseMs: number;
  readonly retryMaxMs: number;
  readonly maxMessageBytes: number;
  readonly sendTimeoutMs: number;
  readonly retentionHours: number;
  readonly purgeIntervalMs: number;
  readonly purgeBatchSize: number;
}

export function outboxRelaySettings(c: OutboxConfig): OutboxRelaySettings {
  return {
    batchSize: c.OUTBOX_BATCH_SIZE,
    pollIntervalMs: c.OUTBOX_POLL_INTERVAL_MS,
    maxAttempts: c.OUTBOX_MAX_ATTEMPTS,
    retryBaseMs: c.OUTBOX_RETRY_BASE_MS,
    retryMaxMs: c.OUTBOX_RETRY_MAX_MS,
    maxMessageBytes: c.OUTBOX_MAX_MESSAGE_BYTES,
    sendTimeoutMs: c.OUTBOX_SEND_TIMEOUT_MS,
    retentionHours: c.OUTBOX_RETENTION_HOURS,
    purgeIntervalMs: c.OUTBOX_PURGE_INTERVAL_MS,
    purgeBatchSize: c.OUTBOX_PURGE_BATCH_SIZE,
  };
}
