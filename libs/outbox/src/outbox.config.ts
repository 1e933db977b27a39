import { defineSection, env, envVar, type SectionValues } from '#config';

/** Variables of the outbox relay. Documented in docs/CONFIGURATION.md ("Outbox relay"). */
export const outboxConfig = defineSection('outbox', {
  OUTBOX_TRANSPORT: envVar({
    schema: env.enumOf(['table', 'wal'] as const),
    default: 'table',
    description:
      "How events leave the ledger's transactions: `table` (a row in `outbox`, published by the table relay; any PostgreSQL) or `wal` (a logical decoding message in the WAL, streamed from a replication slot; needs wal_level=logical and a role with REPLICATION, refused at boot otherwise; ADR 0023). Switch every instance at once",
  }),
  OUTBOX_WAL_SLOT: envVar({
    schema: env
      .string()
      .regex(/^[a-z0-9_]{1,63}$/, 'lower-case letters, digits and _ (a replication slot name)'),
    default: 'payouts_outbox',
    description:
      'The logical replication slot (`wal`): created at boot if missing; one per database (slot names are cluster-wide). Bound its retention with max_slot_wal_keep_size and watch payouts_outbox_slot_lag_bytes',
  }),
  OUTBOX_WAL_STANDBY_RETRY_MS: envVar({
    schema: env.positiveInt(),
    default: '5000',
    description:
      'How often a relay whose slot another instance streams (`wal`: PostgreSQL allows one) tries to take over',
  }),
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

export interface WalRelaySettings {
  readonly slot: string;
  readonly standbyRetryMs: number;
  readonly batchSize: number;
  readonly maxAttempts: number;
  readonly retryBaseMs: number;
  readonly retryMaxMs: number;
}

export function walRelaySettings(c: OutboxConfig): WalRelaySettings {
  return {
    slot: c.OUTBOX_WAL_SLOT,
    standbyRetryMs: c.OUTBOX_WAL_STANDBY_RETRY_MS,
    batchSize: c.OUTBOX_BATCH_SIZE,
    maxAttempts: c.OUTBOX_MAX_ATTEMPTS,
    retryBaseMs: c.OUTBOX_RETRY_BASE_MS,
    retryMaxMs: c.OUTBOX_RETRY_MAX_MS,
  };
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
