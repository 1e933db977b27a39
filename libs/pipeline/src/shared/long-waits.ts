import { type ProviderSubState } from '#contracts';
import { DEFAULT_CALENDAR, nextWorkingDay, type WorkingDayCalendar } from './working-days.js';

/*
 * The provider's long waits (issue 29; shared/spec/provider-facts.md, "Long waits, balance and
 * approvals"). A payout the provider holds as queued, waiting for an approval or scheduled for the
 * next working day is not unclear: the provider said where it is, and documents how long it may
 * stay there. Each such sub-state is checked on its own schedule, slowing down over the wait (the
 * rate budget is shared with new payouts), up to its bound; only past that bound does a person
 * look, with a reason naming the wait. `approved` and `sent_to_bank` are short: the generic
 * RECONCILE_SCHEDULE.
 */

/** A slowing schedule: the delays between checks, the last one repeated until `maxMs` has passed. */
export interface SlowingSchedule {
  readonly delays: readonly number[];
  readonly maxMs: number;
}

/** What one account changes of the long waits. */
export interface AccountWaits {
  /** The account's low-balance queue time at the provider (1 hour to 10 days). */
  readonly queueMaxMs?: number;
  /** The account's bank calendar. */
  readonly calendar?: WorkingDayCalendar;
}

/** The long waits' rules, as the reconciler applies them. */
export interface LongWaitRules {
  /** `queued`: up to the provider's queue time (per account; 4 days unless the account says). */
  readonly queued: SlowingSchedule;
  /** `approval_pending`: a person at the merchant; the provider sets no bound, this setting does. */
  readonly approvalPending: SlowingSchedule;
  /**
   * `scheduled_next_working_day`: until the cut-off (`cutoffMinutes` after local midnight) of the
   * next working day after it was scheduled, plus `settleMs`.
   */
  readonly nextWorkingDay: {
    readonly delays: readonly number[];
    readonly cutoffMinutes: number;
    readonly settleMs: number;
  };
  /**
   * The attention watch: a payout in REQUIRES_ATTENTION whose kind has a status endpoint is still
   * asked on this schedule, from when it entered the queue, until `maxMs` has passed.
   */
  readonly attention: SlowingSchedule;
  /** The bank calendar of accounts not listed. */
  readonly calendar: WorkingDayCalendar;
  readonly accounts: ReadonlyMap<string, AccountWaits>;
}

/** Why a long wait went to a person: the reason names the wait. */
export const LONG_WAIT_REASONS = {
  queued: 'queued_past_provider_maximum',
  approval_pending: 'approval_pending_too_long',
  scheduled_next_working_day: 'not_settled_after_next_working_day',
} as const satisfies Partial<Record<ProviderSubState, string>>;

/** The next check of a long wait: in `inMs`, or its bound has passed (a person, for `reason`). */
export type WaitStep = { readonly inMs: number } | { readonly exhausted: string };

/** The part of a row a long wait is decided on. */
export interface Waiting {
  readonly accountId: string;
  readonly subState: ProviderSubState;
  /** When the sub-state began (the row's state change; a new sub-state is a new version). */
  readonly since: Date;
}

/** The bank calendar of an account. */
export function calendarOf(rules: LongWaitRules, accountId: string): WorkingDayCalendar {
  return rules.accounts.get(accountId)?.calendar ?? rules.calendar ?? DEFAULT_CALENDAR;
}

/** When a long wait's bound passes (ms since the epoch); undefined: not a long wait. */
export function deadlineOf(w: Waiting, rules: LongWaitRules): number | undefined {
  const since = w.since.getTime();
  switch (w.subState) {
    case 'queued':
      return since + (rules.accounts.get(w.accountId)?.queueMaxMs ?? rules.queued.maxMs);
    case 'approval_pending':
      return since + rules.approvalPending.maxMs;
    case 'scheduled_next_working_day': {
      const day = nextWorkingDay(w.since, calendarOf(rules, w.accountId)).getTime();
      return day + rules.nextWorkingDay.cutoffMinutes * 60_000 + rules.nextWorkingDay.settleMs;
    }
    default:
      return undefined;
  }
}

function delaysOf(s: ProviderSubState, rules: LongWaitRules): readonly number[] {
  if (s === 'queued') return rules.queued.delays;
  if (s === 'approval_pending') return rules.approvalPending.delays;
  return rules.nextWorkingDay.delays;
}

/**
 * How long until the next check of a slowing schedule that began at `sinceMs`: checks fall at
 * `since + d0`, `+ d1`, ..., then every last delay. A function of the time alone, not of a count
 * of checks, so a lost lease or a late round never shifts the schedule.
 */
export function slowingDelay(delays: readonly number[], sinceMs: number, nowMs: number): number {
  const last = delays[delays.length - 1];
  if (last === undefined || last <= 0) throw new Error('a slowing schedule needs a last delay > 0');
  let at = sinceMs;
  for (const d of delays) {
    at += d;
    if (at > nowMs) return at - nowMs;
  }
  const beyond = nowMs - at;
  return last - (beyond % last);
}

/**
 * The next check of a payout waiting in a long sub-state, never later than its bound (the last
 * check is at the bound); once the bound has passed: exhausted. Undefined: the sub-state is not a
 * long wait, the generic schedule applies.
 */
export function longWaitStep(w: Waiting, rules: LongWaitRules, nowMs: number): WaitStep | undefined {
  const deadline = deadlineOf(w, rules);
  if (deadline === undefined) return undefined;
  const left = deadline - nowMs;
  if (left <= 0) return { exhausted: LONG_WAIT_REASONS[w.subState as keyof typeof LONG_WAIT_REASONS] };
  return { inMs: Math.min(slowingDelay(delaysOf(w.subState, rules), w.since.getTime(), nowMs), left) };
}

/**
 * The attention watch's next check of a REQUIRES_ATTENTION row that entered the queue at `since`;
 * undefined: the watch ends (the row stays with the person).
 */
export function attentionWatchDelay(since: Date, rules: LongWaitRules, nowMs: number): number | undefined {
  if (rules.attention.delays.length === 0) return undefined;
  const left = since.getTime() + rules.attention.maxMs - nowMs;
  if (left <= 0) return undefined;
  return Math.min(slowingDelay(rules.attention.delays, since.getTime(), nowMs), left);
}

/** The reason of a payout or batch the provider settled while a person had it (the attention watch). */
export const SETTLED_WHILE_WAITING = 'settled_by_provider_while_waiting';
