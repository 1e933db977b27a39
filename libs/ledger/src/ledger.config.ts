import { defineSection, env, envVar, type SectionValues } from '#config';
import { z } from 'zod';
import { keyProblem, parsePreviousKeys } from './secrets-cipher.js';

const key32 = z.string().superRefine((v, ctx) => {
  const problem = keyProblem(v);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});

/** Every previous key is checked at boot, not when the first old row needs it. */
const previousKeys = z.string().superRefine((v, ctx) => {
  for (const message of parsePreviousKeys(v).problems) ctx.addIssue({ code: 'custom', message });
});

/** A development key, so `npm run demo` works out of the box. Production must set its own. */
export const DEVELOPMENT_ENCRYPTION_KEY = Buffer.alloc(32, 7).toString('base64');

export const ledgerConfig = defineSection('ledger', {
  LEDGER_ENCRYPTION_KEY: envVar({
    schema: key32,
    default: DEVELOPMENT_ENCRYPTION_KEY,
    description:
      'AES-256-GCM key (base64, 32 bytes) for transfer tokens, card tokens and cryptograms at rest',
    sensitive: true,
  }),
  LEDGER_ENCRYPTION_KEY_ID: envVar({
    schema: env.string().regex(/^[A-Za-z0-9_.-]{1,32}$/, 'letters, digits, _ . - (at most 32)'),
    default: 'dev-1',
    description: 'Id stored with each ciphertext and request hash, so keys can rotate',
  }),
  LEDGER_PREVIOUS_KEYS: envVar({
    schema: previousKeys,
    default: ' ',
    description:
      'Older keys, comma-separated <keyId>:<base64 key> (each 32 bytes, checked at boot; ids unique and not the current one): still needed to decrypt, and to recognise a retried command whose request hash was made with them (drop a key only when neither can happen)',
    sensitive: true,
  }),
  EVENTS_SUBMITTING: envVar({
    schema: z.enum(['publish', 'skip']),
    default: 'publish',
    description:
      "Whether a payout's SUBMITTING state (about to call the provider) is published; skip: one event fewer per payout, and a gap in that payout's versions on the topic (docs/CONTRACTS.md)",
  }),
  EVENTS_ACCEPTED: envVar({
    schema: z.enum(['publish', 'skip']),
    default: 'publish',
    description:
      "Whether a new payout's RECEIVED state (its command is recorded) is published; skip: one event fewer per payout, its first version on the topic is not 1, and a consumer learns of the payout from its next state (with EVENTS_SUBMITTING=skip too: a payout that settles at once has only its outcome; docs/CONTRACTS.md)",
  }),
  HISTORY_RETENTION_MONTHS: envVar({
    schema: env.nonNegativeInt(),
    default: '0',
    description:
      'Months the state history is kept (ADR 0016, amendment of 2026-11-25): a monthly partition of `state_history` is retired once its whole range is older; 0: kept forever',
  }),
  HISTORY_RETENTION_ACTION: envVar({
    schema: z.enum(['detach', 'drop']),
    default: 'detach',
    description:
      'What retires a history partition: detach (moved to schema state_history_archive, for the operator to dump and drop) or drop',
  }),
  HISTORY_PARTITIONS_AHEAD: envVar({
    schema: env.positiveInt(),
    default: '3',
    description:
      "Months of history partitions kept created ahead of the current one (rows no partition covers go to the default partition, and move to their month's when it is created)",
  }),
  HISTORY_MAINTENANCE_INTERVAL_MS: envVar({
    schema: env.positiveInt(),
    default: '3600000',
    description:
      'How often the reconciler role runs the history partition maintenance (creation ahead, retention; advisory-locked: one instance per round)',
  }),
});

/** A DDL statement of the history maintenance waits at most this long for its lock, writes queue behind it. */
export const HISTORY_MAINTENANCE_LOCK_TIMEOUT_MS = 2000;

export type LedgerConfig = SectionValues<typeof ledgerConfig.vars>;
