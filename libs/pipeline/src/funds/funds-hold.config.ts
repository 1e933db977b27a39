import { z } from 'zod';
import { env, envVar } from '#config';
import { toPaise } from '#ledger';
import { parseSchedule } from '../shared/check-schedule.js';

/*
 * Hold for funds (issue 32, item 3; ADR 0027), part of the pipeline section (pipeline.config.ts
 * spreads it in). Per account, off by default: an account not in FUNDS_HOLD is sent as today.
 * Operators' side: docs/OPERATIONS.md, "Hold for funds".
 */

const SECOND = 1_000;
const DAY = 24 * 3_600_000;

const maxHold = z.string().transform((s, ctx) => {
  try {
    const d = parseSchedule(s);
    if (d.length !== 1) throw new Error(`one duration, e.g. 96h, not ${JSON.stringify(s)}`);
    const ms = d[0] as number;
    // The provider itself keeps a transfer queued for low balance up to 10 days.
    if (ms < SECOND || ms > 10 * DAY) throw new Error('between 1s and 240h');
    return ms;
  } catch (e) {
    ctx.addIssue({ code: 'custom', message: e instanceof Error ? e.message : 'bad duration' });
    return z.NEVER;
  }
});

const threshold = z
  .string()
  .refine((a) => /^\d{1,14}(\.\d{1,2})?$/.test(a), 'a decimal amount in rupees, e.g. "5000.00"');

const fee = z
  .string()
  .refine((a) => /^\d{1,6}(\.\d{1,2})?$/.test(a), 'a decimal amount in rupees, e.g. "5.90"');

const holdSchema = z
  .object({
    accountId: z.string().min(1),
    threshold: threshold.default('0'),
    fee: fee.default('0'),
    maxHold: maxHold.optional(),
  })
  .strict();
type HoldEntry = z.infer<typeof holdSchema>;

const holdsSchema = env.json(
  z
    .array(holdSchema)
    .refine((a) => new Set(a.map((x) => x.accountId)).size === a.length, 'one entry per account'),
  [] as HoldEntry[],
);

export const FUNDS_HOLD_VARS = {
  FUNDS_HOLD: envVar({
    schema: holdsSchema,
    default: '',
    description:
      'Hold for funds, per account: JSON array of {accountId, threshold? (decimal rupees kept back and never spent, default "0"), fee? (decimal rupees: the provider fee per transfer, its service charge plus tax, counted with every payout and every batch entry as what it takes from the balance, default "0"; with it unset, room counts amounts only and the threshold must cover the fees: OPERATIONS.md, Hold for funds), maxHold? (as FUNDS_MAX_HOLD)}. For such an account a payout (a batch, whole) that does not fit the available balance as last read, less what was sent after that reading and the threshold, is not sent to bounce: it waits in HELD_FOR_FUNDS and is sent, first in first out (a later one that fits goes first), when a reading shows room; held past the maximum it ends REJECTED (reason funds_hold_expired; nothing was sent). Nothing is sent before the first reading. Needs BALANCE_READ_INTERVAL_MS above 0; every account must be in PROVIDER_ACCOUNTS. Empty: holding off everywhere (sent as they come; the provider refuses what the balance does not cover)',
  }),
  FUNDS_MAX_HOLD: envVar({
    schema: maxHold,
    default: '96h',
    description:
      'How long a payout or batch may wait for funds before it ends REJECTED (reason funds_hold_expired), 1s to 240h. Per account: FUNDS_HOLD[].maxHold',
  }),
};

/** One account's holding: the money kept back, the fee per transfer and the maximum hold. */
export interface FundsHoldAccount {
  readonly thresholdPaise: bigint;
  /** The provider's fee per transfer (charge and tax), counted with each payout and batch entry. */
  readonly feePaise: bigint;
  readonly maxHoldMs: number;
}

/** The accounts with holding on (none: today's behaviour, the claim unchanged). */
export interface FundsHoldSettings {
  readonly accounts: ReadonlyMap<string, FundsHoldAccount>;
}

/**
 * The holding of each account in FUNDS_HOLD, from the validated pipeline section. Throws, naming
 * the problem, when an account is not configured (a typo would silently send as today) or when the
 * balance reader is off (a held account would wait for a reading that never comes).
 */
export function fundsHoldSettings(
  c: {
    readonly FUNDS_HOLD: readonly HoldEntry[];
    readonly FUNDS_MAX_HOLD: number;
    readonly BALANCE_READ_INTERVAL_MS: number;
  },
  accountIds: readonly string[],
): FundsHoldSettings {
  const unknown = c.FUNDS_HOLD.map((h) => h.accountId).filter((id) => !accountIds.includes(id));
  if (unknown.length > 0)
    throw new Error(`FUNDS_HOLD names accounts not configured in PROVIDER_ACCOUNTS: ${unknown.join(', ')}`);
  if (c.FUNDS_HOLD.length > 0 && c.BALANCE_READ_INTERVAL_MS <= 0)
    throw new Error(
      'FUNDS_HOLD needs BALANCE_READ_INTERVAL_MS above 0: a held account is sent only after a balance reading',
    );
  return {
    accounts: new Map(
      c.FUNDS_HOLD.map((h) => [
        h.accountId,
        {
          thresholdPaise: toPaise(h.threshold),
          feePaise: toPaise(h.fee),
          maxHoldMs: h.maxHold ?? c.FUNDS_MAX_HOLD,
        },
      ]),
    ),
  };
}
