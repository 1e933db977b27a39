import { type PayoutStatus } from '#contracts';
import { canMove, contradictionOf, isNegative, isTerminal, type PayoutRow } from '#ledger';
import { type PayoutCheck, type PayoutFound } from '#provider-client';
import { nextCheckDelay } from '../shared/check-schedule.js';
import { errorOf } from '../shared/submit-payout.js';
import { REFUSED_ON_RESEND } from '../shared/decide-after-submit.js';
import { traitsOf } from '../shared/payout-kinds.js';
import { onExpiredSubmission, onNotFound } from './in-doubt.js';
import { firstCheckIn, isSubStateChange, longWaitOf } from './decide-sub-state.js';
import { calendarOf, type LongWaitRules } from './long-waits.js';
import { addWorkingDays, DEFAULT_CALENDAR } from '../shared/working-days.js';
import { HELD_BY_ANOTHER, heldByAnother } from './held-by-another.js';

/** What the status endpoint said about a payout (the connector's check), or that it has none. */
export type StatusCheck = PayoutCheck | { found: false; result: 'no-status-endpoint' };

/** The parts of the reconciler's settings its decisions depend on. */
export interface CheckRules {
  /** Delays between checks: schedule[n] follows the n-th check. Past its end: REQUIRES_ATTENTION. */
  readonly schedule: readonly number[];
  /** Sends of one transferId, in all, before a person decides. */
  readonly maxSendAttempts: number;
  /** Delays between reversal checks of a SUCCESS row; past its end the watch stops. */
  readonly reversalWatch: readonly number[];
  /**
   * The failed watch (ADR 0018): delays between checks of a FAILED, REJECTED or REVERSED row of a
   * kind with a status endpoint; failedWatch[0] follows the move (the ledger sets it). Past its
   * end the watch stops; empty: no watch.
   */
  readonly failedWatch: readonly number[];
  /**
   * For kinds the provider does not deduplicate: how long the status endpoint must go on not
   * knowing an in-doubt payout, from its first "not found", before it is settled as not received.
   */
  readonly notFoundSettleMs: number;
  /**
   * A re-send refused after an attempt that may have reached the provider (refused_on_resend):
   * asked on the schedule, but handed to a person once this long has passed since the refusal
   * (or a reopen) without the provider settling it (issue 29, defect 4).
   */
  readonly refusedResendSettleMs: number;
  /**
   * Accounts whose operator confirmed with the provider that its status endpoint knows internal
   * transfers: there a payout still unknown to it after the settle window is FAILED
   * (not_received_by_provider); elsewhere a person decides (PROVIDER_ACCOUNTS `notReceivedFails`).
   */
  readonly notReceivedFailsAccounts: ReadonlySet<string>;
  /**
   * The provider's long waits (issue 29): a PENDING payout in a long sub-state (queued, approval
   * pending, next working day) is checked on its own schedule, up to its bound; and the attention
   * watch. Absent: every sub-state on the generic schedule, no attention watch.
   */
  readonly waits?: LongWaitRules;
  /**
   * The reversal watch counts working days (issue 29): past its schedule, a SUCCESS is asked again
   * at the schedule's last delay until this many working days of the account's bank calendar have
   * passed since it was paid (banks return credits days later; a weekend or holiday holds them).
   * Absent or 0: the schedule alone decides.
   */
  readonly reversalWatchWorkingDays?: number;
}

/** Why an answer was not applied: counted and logged by the reconciler, whatever the step. */
export type CheckNote = 'unknown-status' | 'backwards';

/** What the reconciler does with a claimed row. */
export type CheckStep =
  /** Ask the status endpoint; `resendsSpent`: re-sends are used up, a "not found" goes to a person. */
  | { readonly do: 'ask-status'; readonly resendsSpent: boolean }
  /** Send the same transferId again (SUBMITTING, new attempt). */
  | { readonly do: 'resend' }
  | { readonly do: 'attention'; readonly reason: string; readonly note?: CheckNote }
  /** Same state, look again in `inMs`. */
  | {
      readonly do: 'reschedule';
      readonly inMs: number;
      readonly lastError: Record<string, unknown> | null;
      readonly note?: CheckNote;
    }
  /** The watch of a SUCCESS (reversal) or FAILED (failed watch) row ends; it stays as it is. */
  | { readonly do: 'end-watch'; readonly note?: CheckNote }
  /**
   * The provider now says otherwise than the published terminal state (ADR 0018): recorded as a
   * contradiction through the ledger (event, history, the operators' queue), never applied; the
   * watch goes on in `inMs` (undefined: it ends).
   */
  | {
      readonly do: 'contradict';
      readonly observed: PayoutStatus;
      readonly raw: string | undefined;
      readonly inMs: number | undefined;
    }
  /** Apply the provider's answer: a new state, checked again in `recheckInMs` unless final. */
  | {
      readonly do: 'move';
      readonly to: PayoutStatus;
      readonly answer: PayoutFound;
      readonly raw: string | undefined;
      readonly recheckInMs: number | undefined;
    };

/**
 * Before asking: a SUBMITTING row past its lease is a crash mid-call (outcome unknown), a lost
 * lease, or an attempt the provider did not process. Only the last is sent again without asking
 * first. Re-sends the provider kept refusing unprocessed (rate limits, a token refresh, refused
 * credentials) are bounded like checks; an earlier attempt may still have reached it, so a person
 * is called only once the status endpoint does not know the transfer either.
 */
export function decideBeforeAsking(row: PayoutRow, rules: CheckRules): CheckStep {
  if (row.status !== 'SUBMITTING') return { do: 'ask-status', resendsSpent: false };
  const step = onExpiredSubmission(row, row.lastError);
  if (step.do === 'attention') return step;
  if (step.do === 'resend') {
    if (nextCheckDelay(rules.schedule, row.checkCount) !== undefined) return resend(row, rules);
    if (row.attempt <= 1 || traitsOf(row).status === null) {
      return { do: 'attention', reason: 'not_processed_after_retries' };
    }
    return { do: 'ask-status', resendsSpent: true };
  }
  return { do: 'ask-status', resendsSpent: false };
}

/** After asking: what the answer (or its absence) means for the row. */
export function decideOnAnswer(
  row: PayoutRow,
  check: StatusCheck,
  resendsSpent: boolean,
  rules: CheckRules,
  nowMs: number = Date.now(),
): CheckStep {
  if (!check.found) {
    const r = check.result;
    if (r === 'no-status-endpoint') {
      return isWatched(row) ? { do: 'end-watch' } : { do: 'attention', reason: 'no_status_endpoint' };
    }
    if (
      r.outcome === 'failed' &&
      r.kind === 'not-found' &&
      (row.status === 'UNKNOWN' || row.status === 'SUBMITTING')
    ) {
      if (resendsSpent) return { do: 'attention', reason: 'not_processed_after_retries' };
      // The provider refused a re-send: an earlier attempt may exist and the status endpoint lag.
      // Neither sent again nor settled, also after a reopen (the row keeps the fact): asked again
      // on the schedule, and a person has it within the settle window.
      if (isRefusedResend(row)) return refusedResend(row, errorOf(r.diagnostics), rules, nowMs);
      // The provider has no record of it. Sending the same transferId again is safe only where
      // the provider would refuse a repeat.
      const step = onNotFound(row);
      if (step.do === 'attention') return notReceived(row, rules, nowMs);
      return resend(row, rules);
    }
    return later(row, errorOf(r.diagnostics), rules, undefined, nowMs);
  }
  // Another transfer holds the id at the provider (issue 29): its state is not this payout's.
  if (!isTerminal(row.status) && heldByAnother(row, check.answer)) {
    return { do: 'attention', reason: HELD_BY_ANOTHER };
  }
  // The connector has mapped the provider's status; the raw one is kept for people.
  const raw = check.answer.raw;
  const to = check.answer.status;
  if (!to) return later(row, { providerStatus: raw ?? null }, rules, 'unknown-status', nowMs);
  // PENDING in another sub-state is news (an event), and a new wait with its own schedule.
  if (isSubStateChange(row, to, check.answer)) {
    const recheckInMs = firstCheckIn(
      row.accountId,
      check.answer.subState,
      rules.schedule,
      rules.waits,
      nowMs,
    );
    return { do: 'move', to, answer: check.answer, raw, recheckInMs };
  }
  if (to === row.status) return later(row, null, rules, undefined, nowMs);
  if (contradictionOf(row.status, to)) {
    return { do: 'contradict', observed: to, raw, inMs: nextCheckDelay(watchOf(row, rules), row.checkCount) };
  }
  if (!canMove(row.status, to)) return later(row, null, rules, 'backwards', nowMs);
  // A new state starts its schedule afresh (the ledger resets check_count on a state change): the
  // checks spent on the old state must not send a payout the provider has answered about to a person.
  const recheckInMs = isTerminal(to)
    ? undefined
    : firstCheckIn(row.accountId, check.answer.subState, rules.schedule, rules.waits, nowMs);
  if (!isTerminal(to) && recheckInMs === undefined) {
    return { do: 'attention', reason: 'reconciliation_schedule_exhausted' };
  }
  return { do: 'move', to, answer: check.answer, raw, recheckInMs };
}

/** The `notFoundSince` a first "not found" wrote on the row, in ms; undefined when there is none. */
function notFoundSince(row: PayoutRow): number | undefined {
  const v = row.lastError?.['notFoundSince'];
  const t = typeof v === 'string' ? Date.parse(v) : NaN;
  return Number.isFinite(t) ? t : undefined;
}

/**
 * "Not found" for a kind the provider does not deduplicate: a re-send could pay twice, and one
 * answer may be a status endpoint that lags behind. So the status endpoint is asked again once the
 * settle window has passed since its first "not found"; if it still does not know the transfer,
 * the money did not move and the payout is FAILED (not_received_by_provider), which a status
 * check settles without a person. Upstream may then pay under a new id.
 */
function notReceived(row: PayoutRow, rules: CheckRules, nowMs: number): CheckStep {
  const since = notFoundSince(row);
  if (since === undefined) {
    return {
      do: 'reschedule',
      inMs: rules.notFoundSettleMs,
      lastError: { notFoundSince: new Date(nowMs).toISOString() },
    };
  }
  const left = since + rules.notFoundSettleMs - nowMs;
  if (left > 0) return { do: 'reschedule', inMs: left, lastError: row.lastError };
  // A person (or a webhook) took it out of REQUIRES_ATTENTION: only the provider's own word or
  // four eyes settle it, never this automatic FAILED (ADR 0016, 0018).
  if (row.reopenedAt) return { do: 'attention', reason: NOT_RECEIVED_FOUR_EYES };
  // Only the sandbox says the status endpoint knows internal transfers: unless the account's
  // operator confirmed it with the provider, "still not found" is no ground for a FAILED.
  if (!rules.notReceivedFailsAccounts.has(row.accountId)) {
    return { do: 'attention', reason: NOT_RECEIVED_UNCONFIRMED };
  }
  // "Not found" is no proof: a status endpoint may lag, a call may be applied late. The FAILED is
  // watched (failedWatch) and a later sign of the money moving becomes a contradiction.
  return {
    do: 'move',
    to: 'FAILED',
    answer: { reason: NOT_RECEIVED },
    raw: undefined,
    recheckInMs: nextCheckDelay(rules.failedWatch, 0),
  };
}

/** The reason of a reopened payout still unknown to the provider: a person settles it, with four eyes. */
export const NOT_RECEIVED_FOUR_EYES = 'not_received_needs_four_eyes';

/**
 * The reason of a payout still unknown to the provider's status endpoint after the settle window,
 * on an account whose operator has not confirmed that endpoint knows its kind (internal
 * transfers): a person asks the provider, then settles it (four eyes).
 */
export const NOT_RECEIVED_UNCONFIRMED = 'not_received_unconfirmed';

/** The provider refused a re-send while an earlier attempt may have reached it (the row keeps it). */
function isRefusedResend(row: PayoutRow): boolean {
  return (row.resendRefusedAt ?? null) !== null || row.reason === REFUSED_ON_RESEND;
}

/**
 * A refused re-send still unclear (issue 29, defect 4): asked on the schedule, but within the
 * settle window (REFUSED_RESEND_SETTLE_MS) from the refusal, or from a person's reopen, it is a
 * person's (REQUIRES_ATTENTION refused_on_resend, its own alert): never sent again, never settled
 * on "not found". Rows refused before the row kept the time count from their state change.
 */
function refusedResend(
  row: PayoutRow,
  lastError: Record<string, unknown> | null,
  rules: CheckRules,
  nowMs: number,
  note?: CheckNote,
): CheckStep {
  const noted = note ? { note } : {};
  const since = Math.max(
    (row.resendRefusedAt ?? row.stateChangedAt).getTime(),
    row.reopenedAt?.getTime() ?? 0,
  );
  const left = since + rules.refusedResendSettleMs - nowMs;
  const next = nextCheckDelay(rules.schedule, row.checkCount);
  if (left <= 0 || next === undefined) return { do: 'attention', reason: REFUSED_ON_RESEND, ...noted };
  return { do: 'reschedule', inMs: Math.min(next, left), lastError, ...noted };
}

/** A terminal row the reconciler only watches: never handed to a person, its watch just ends. */
function isWatched(row: PayoutRow): boolean {
  return row.status === 'SUCCESS' || isNegative(row.status);
}

/** The schedule a row is checked on: a watch for a settled row, the reconcile schedule otherwise. */
function watchOf(row: PayoutRow, rules: CheckRules): readonly number[] {
  if (row.status === 'SUCCESS') return rules.reversalWatch;
  if (isNegative(row.status)) return rules.failedWatch;
  return rules.schedule;
}

/** The reason of a payout settled FAILED because the provider never had it. */
export const NOT_RECEIVED = 'not_received_by_provider';

/**
 * A re-send is bounded: a provider that answers "already exists" to a send and "not found" to a
 * status call would otherwise be asked forever.
 */
function resend(row: PayoutRow, rules: CheckRules): CheckStep {
  if (row.attempt >= rules.maxSendAttempts) return { do: 'attention', reason: 'too_many_send_attempts' };
  return { do: 'resend' };
}

/** Same state: look again per the schedule, or hand it to a person when the schedule is spent. */
function later(
  row: PayoutRow,
  lastError: Record<string, unknown> | null,
  rules: CheckRules,
  note?: CheckNote,
  nowMs: number = Date.now(),
): CheckStep {
  if ((row.status === 'UNKNOWN' || row.status === 'SUBMITTING') && isRefusedResend(row)) {
    return refusedResend(row, lastError, rules, nowMs, note);
  }
  const noted = note ? { note } : {};
  // A long wait at the provider: its own slowing schedule, up to its bound, then a person.
  const wait = longWaitOf(row, rules.waits, nowMs);
  if (wait && 'exhausted' in wait) return { do: 'attention', reason: wait.exhausted, ...noted };
  if (wait) return { do: 'reschedule', inMs: wait.inMs, lastError, ...noted };
  // The reversal and failed watches: a settled payout is never handed to a person, the watch just ends.
  const inMs = nextCheckDelay(watchOf(row, rules), row.checkCount);
  if (inMs === undefined) {
    const more = row.status === 'SUCCESS' ? reversalWatchLeft(row, rules, nowMs) : undefined;
    if (more !== undefined) return { do: 'reschedule', inMs: more, lastError, ...noted };
    if (isWatched(row)) return { do: 'end-watch', ...noted };
    return { do: 'attention', reason: 'reconciliation_schedule_exhausted', ...noted };
  }
  return { do: 'reschedule', inMs, lastError, ...noted };
}

/**
 * How long until the next reversal check of a SUCCESS past its schedule, while fewer than
 * `reversalWatchWorkingDays` working days (the account's bank calendar) have passed since it was
 * paid; undefined: the watch ends.
 */
function reversalWatchLeft(row: PayoutRow, rules: CheckRules, nowMs: number): number | undefined {
  const days = rules.reversalWatchWorkingDays ?? 0;
  const last = rules.reversalWatch.at(-1);
  if (days <= 0 || last === undefined) return undefined;
  const cal = rules.waits ? calendarOf(rules.waits, row.accountId) : DEFAULT_CALENDAR;
  const end = addWorkingDays(row.stateChangedAt, days, cal).getTime();
  return nowMs >= end ? undefined : Math.min(last, end - nowMs);
}
