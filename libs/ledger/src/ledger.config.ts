import { defineSection, env, envVar, type SectionValues } from '#config';
import { z } from 'zod';

const key32 = z
  .string()
  .refine((v) => Buffer.from(v, 'base64').length === 32, { message: 'must be 32 bytes, base64-encoded' });

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
    schema: z.string(),
    default: ' ',
    description:
      'Older keys, comma-separated <keyId>:<base64 key>: still needed to decrypt, and to recognise a retried command whose request hash was made with them (drop a key only when neither can happen)',
    sensitive: true,
  }),
  EVENTS_SUBMITTING: envVar({
    schema: z.enum(['publish', 'skip']),
    default: 'publish',
    description:
      "Whether a payout's SUBMITTING state (about to call the provider) is published; skip: one event fewer per payout, and a gap in that payout's versions on the topic (docs/CONTRACTS.md)",
  }),
});

export type LedgerConfig = SectionValues<typeof ledgerConfig.vars>;
