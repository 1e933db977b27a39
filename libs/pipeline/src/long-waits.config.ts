import { z } from 'zod';
import { envVar } from '#config';
import { parseSchedule } from './shared/check-schedule.js';
import { type AccountWaits, type LongWaitRules } from './reconciler/long-waits.js';
import { DEFAULT_CALENDAR, type WorkingDayCalendar } from './shared/working-days.js';

/*
 * The settings of the provider's long waits and of the attention watch (issue 29), part of the
 * pipeline section (pipeline.config.ts spreads them in). Facts and sources: provider-facts.md,
 * "Long waits, balance and approvals"; the choices: docs/OPERATIONS.md, "The provider's long waits".
 */

const HOUR = 3_600_000;

const schedule = z.string().transform((s, ctx) => {
  if (s.trim() === 'off') return [];
  try {
    return parseSchedule(s);
  } catch (e) {
    ctx.addIssue({ code: 'custom', message: e instanceof Error ? e.message : 'bad schedule' });
    return z.NEVER;
  }
});

/** One duration (`96h`, `30m`), in ms. */
function parseDuration(s: string): number {
  const d = parseSchedule(s);
  if (d.length !== 1) throw new Error(`one duration, e.g. 96h, not ${JSON.stringify(s)}`);
  return d[0] as number;
}

const duration = (min: number, max: number) =>
  z.string().transform((s, ctx) => {
    try {
      const ms = parseDuration(s);
      if (ms < min || ms > max) throw new Error(`between ${min / HOUR}h and ${max / HOUR}h`);
      return ms;
    } catch (e) {
      ctx.addIssue({ code: 'custom', message: e instanceof Error ? e.message : 'bad duration' });
      return z.NEVER;
    }
  });

/** The provider's low-balance queue time: 1 hour to 10 days (provider docs, low-balance queuing). */
const QUEUE_MIN = HOUR;
const QUEUE_MAX = 240 * HOUR;

const calendarSchema = z
  .object({
    weeklyOff: z.array(z.number().int().min(0).max(6)).optional(),
    offSaturdays: z.array(z.number().int().min(1).max(5)).optional(),
    holidays: z.array(z.string().regex(/^\d{4}-\d{2}-\d{2}$/)).optional(),
    utcOffsetMinutes: z.number().int().min(-720).max(840).optional(),
  })
  .strict()
  .refine((c) => (c.weeklyOff ?? DEFAULT_CALENDAR.weeklyOff).length < 7, 'a calendar needs a working day');

function calendarOf(c: z.infer<typeof calendarSchema> | undefined): WorkingDayCalendar {
  return { ...DEFAULT_CALENDAR, ...(c ?? {}) };
}

const accountSchema = z
  .object({
    accountId: z.string().min(1),
    queueMaxWait: z.string().optional(),
    calendar: calendarSchema.optional(),
  })
  .strict()
  .superRefine((a, ctx) => {
    if (a.queueMaxWait === undefined) return;
    try {
      const ms = parseDuration(a.queueMaxWait);
      if (ms < QUEUE_MIN || ms > QUEUE_MAX)
        ctx.addIssue({ code: 'custom', message: 'queueMaxWait: 1h to 240h' });
    } catch (e) {
      ctx.addIssue({ code: 'custom', message: e instanceof Error ? e.message : 'bad queueMaxWait' });
    }
  });

const jsonOf = <T>(schema: z.ZodType<T>) =>
  z.string().transform((raw, ctx): T | undefined => {
    if (raw.trim() === '') return undefined;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      ctx.addIssue({ code: 'custom', message: 'must be JSON' });
      return z.NEVER;
    }
    const p = schema.safeParse(value);
    if (!p.success) {
      for (const i of p.error.issues)
        ctx.addIssue({ code: 'custom', message: `${i.path.join('.')}: ${i.message}` });
      return z.NEVER;
    }
    return p.data;
  });

export const LONG_WAIT_VARS = {
  QUEUED_CHECK_SCHEDULE: envVar({
    schema: schedule.refine((s) => s.length > 0, 'at least one delay'),
    default: '5m,15m,30m,1h',
    description:
      'A payout (or batch entry: its batch goes by its longest open wait) the provider holds as queued (low balance): delays between status checks, the last one repeated (hourly by default: the rate budget is shared) until QUEUED_MAX_WAIT has passed, then REQUIRES_ATTENTION (queued_past_provider_maximum)',
  }),
  QUEUED_MAX_WAIT: envVar({
    schema: duration(QUEUE_MIN, QUEUE_MAX),
    default: '96h',
    description:
      "How long the provider may hold a transfer queued for low balance: the provider's setting for the account (1h to 240h; the provider's default is 4 days). An account that set another: LONG_WAIT_ACCOUNTS[].queueMaxWait",
  }),
  APPROVAL_PENDING_CHECK_SCHEDULE: envVar({
    schema: schedule.refine((s) => s.length > 0, 'at least one delay'),
    default: '5m,15m,30m,1h,3h',
    description:
      "A payout or batch entry waiting for an approval in the provider's dashboard: delays between status checks, the last one repeated until APPROVAL_PENDING_MAX_WAIT has passed",
  }),
  APPROVAL_PENDING_MAX_WAIT: envVar({
    schema: duration(HOUR, 60 * 24 * HOUR),
    default: '168h',
    description:
      "How long a payout may wait for a person at the merchant to approve it in the provider's dashboard (the provider sets no limit) before it becomes REQUIRES_ATTENTION (approval_pending_too_long)",
  }),
  NEXT_WORKING_DAY_CHECK_SCHEDULE: envVar({
    schema: schedule.refine((s) => s.length > 0, 'at least one delay'),
    default: '30m,1h,2h',
    description:
      "A payout or batch entry the provider scheduled for the bank's next working day: delays between status checks, the last one repeated until that day's cut-off plus NEXT_WORKING_DAY_SETTLE",
  }),
  NEXT_WORKING_DAY_CUTOFF: envVar({
    schema: z
      .string()
      .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'HH:MM')
      .transform((s) => Number(s.slice(0, 2)) * 60 + Number(s.slice(3))),
    default: '18:00',
    description:
      "The banks' cut-off on a working day, local time of the account's calendar (HH:MM): a payout scheduled for the next working day is expected settled by then",
  }),
  NEXT_WORKING_DAY_SETTLE: envVar({
    schema: duration(0, 72 * HOUR),
    default: '4h',
    description:
      "Settle window after the next working day's cut-off before a payout scheduled for it becomes REQUIRES_ATTENTION (not_settled_after_next_working_day); NEFT settles in up to 2 hours",
  }),
  ATTENTION_WATCH_SCHEDULE: envVar({
    schema: schedule,
    default: '1h,3h,6h,12h',
    description:
      'Attention watch: a REQUIRES_ATTENTION payout whose kind has a status endpoint, or batch, is still asked, with these delays, the last one repeated until ATTENTION_WATCH_MAX; a terminal answer that contradicts nothing (for a batch: every entry final) settles it (reason settled_by_provider_while_waiting). "off" disables it',
  }),
  ATTENTION_WATCH_MAX: envVar({
    schema: duration(HOUR, 90 * 24 * HOUR),
    default: '336h',
    description:
      "How long the attention watch goes on after a payout entered REQUIRES_ATTENTION (14 days: past the provider's longest queue, 10 days, and a long weekend)",
  }),
  BANK_CALENDAR: envVar({
    schema: jsonOf(calendarSchema),
    default: '',
    description:
      'Working days of the banks, JSON {weeklyOff?: [0-6, Sunday 0], offSaturdays?: [1-5], holidays?: ["YYYY-MM-DD"], utcOffsetMinutes?}. Empty: Sunday and the 2nd and 4th Saturday off, no holidays, UTC+05:30 (docs/OPERATIONS.md, "Working days"). List the year\'s bank holidays here',
  }),
  LONG_WAIT_ACCOUNTS: envVar({
    schema: jsonOf(z.array(accountSchema)),
    default: '',
    description:
      "Per account, JSON array of {accountId, queueMaxWait? (the account's low-balance queue time at the provider, 1h to 240h), calendar? (as BANK_CALENDAR)}",
  }),
};

/** The long waits' rules from the validated pipeline section. */
export function longWaitRules(c: {
  QUEUED_CHECK_SCHEDULE: number[];
  QUEUED_MAX_WAIT: number;
  APPROVAL_PENDING_CHECK_SCHEDULE: number[];
  APPROVAL_PENDING_MAX_WAIT: number;
  NEXT_WORKING_DAY_CHECK_SCHEDULE: number[];
  NEXT_WORKING_DAY_CUTOFF: number;
  NEXT_WORKING_DAY_SETTLE: number;
  ATTENTION_WATCH_SCHEDULE: number[];
  ATTENTION_WATCH_MAX: number;
  BANK_CALENDAR: z.infer<typeof calendarSchema> | undefined;
  LONG_WAIT_ACCOUNTS: Array<z.infer<typeof accountSchema>> | undefined;
}): LongWaitRules {
  const calendar = calendarOf(c.BANK_CALENDAR);
  const accounts = new Map<string, AccountWaits>();
  for (const a of c.LONG_WAIT_ACCOUNTS ?? []) {
    accounts.set(a.accountId, {
      ...(a.queueMaxWait === undefined ? {} : { queueMaxMs: parseDuration(a.queueMaxWait) }),
      calendar: a.calendar ? { ...calendar, ...a.calendar } : calendar,
    });
  }
  return {
    queued: { delays: c.QUEUED_CHECK_SCHEDULE, maxMs: c.QUEUED_MAX_WAIT },
    approvalPending: { delays: c.APPROVAL_PENDING_CHECK_SCHEDULE, maxMs: c.APPROVAL_PENDING_MAX_WAIT },
    nextWorkingDay: {
      delays: c.NEXT_WORKING_DAY_CHECK_SCHEDULE,
      cutoffMinutes: c.NEXT_WORKING_DAY_CUTOFF,
      settleMs: c.NEXT_WORKING_DAY_SETTLE,
    },
    attention: { delays: c.ATTENTION_WATCH_SCHEDULE, maxMs: c.ATTENTION_WATCH_MAX },
    calendar,
    accounts,
  };
}
