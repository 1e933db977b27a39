import { type PayoutStatus } from '#contracts';
import { canMove, contradictionOf, isTerminal, type PayoutRow } from '#ledger';
import { type PayoutCheck, type PayoutFound } from '#provider-client';
import { nextCheckDelay } from '../shared/status-mapping.js';
import { errorOf } from '../shared/submit-payout.js';
import { REFUSED_ON_RESEND } from '../shared/decide-after-submit.js';
import { traitsOf } from '../shared/payout-kinds.js';
import { onExpiredSubmission, onNotFound } from './in-doubt.js';
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
   * The failed watch (ADR 0018): delays between checks of a FAILED row the provider's status
   * endpoint never stated FAILED (not received); failedWatch[0] follows the move to FAILED.
   * Past its end the watch stops; empty: no watch.
   */
  readonly failedWatch: readonly number[];
  /**
   * For kinds the provider does not deduplicate: how long the status endpoint must go on not
   * knowing an in-doubt payout, from its first "not found", before it is settled as not received.
   */
  readonly notFoundSettleMs: number;
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
      // Neither sent again nor settled: asked again on the schedule, then a person.
      if (row.reason === REFUSED_ON_RESEND) return later(row, errorOf(r.diagnostics), rules);
      // The provider has no record of it. Sending the same transferId again is safe only where
      // the provider would refuse a repeat.
      const step = onNotFound(row);
      if (step.do === 'attention') return notReceived(row, rules, nowMs);
      return resend(row, rules);
    }
    return later(row, errorOf(r.diagnostics), rules);
  }
  // Another transfer holds the id at the provider (issue 29): its state is not this payout's.
  if (!isTerminal(row.status) && heldByAnother(row, check.answer)) {
    return { do: 'attention', reason: HELD_BY_ANOTHER };
  }
  // The connector has mapped the provider's status; the raw one is kept for people.
  const raw = check.answer.raw;
  const to = check.answer.status;
  if (!to) return later(row, { providerStatus: raw ?? null }, rules, 'unknown-status');
  if (to === row.status) return later(row, null, rules);
  if (contradictionOf(row.status, to)) {
    return { do: 'contradict', observed: to, raw, inMs: nextCheckDelay(watchOf(row, rules), row.checkCount) };
  }
  if (!canMove(row.status, to)) return later(row, null, rules, 'backwards');
  // A new state starts its schedule afresh (the ledger resets check_count on a state change): the
  // checks spent on the old state must not send a payout the provider has answered about to a person.
  const recheckInMs = isTerminal(to) ? undefined : nextCheckDelay(rules.schedule, 0);
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

/** A terminal row the reconciler only watches: never handed to a person, its watch just ends. */
function isWatched(row: PayoutRow): boolean {
  return row.status === 'SUCCESS' || row.status === 'FAILED' || row.status === 'REJECTED';
}

/** The schedule a row is checked on: a watch for a settled row, the reconcile schedule otherwise. */
function watchOf(row: PayoutRow, rules: CheckRules): readonly number[] {
  if (row.status === 'SUCCESS') return rules.reversalWatch;
  if (row.status === 'FAILED' || row.status === 'REJECTED') return rules.failedWatch;
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
): CheckStep {
  const noted = note ? { note } : {};
  // The reversal and failed watches: a settled payout is never handed to a person, the watch just ends.
  const inMs = nextCheckDelay(watchOf(row, rules), row.checkCount);
  if (inMs === undefined) {
    if (isWatched(row)) return { do: 'end-watch', ...noted };
    // A refused re-send still unclear keeps its own reason: the person must know a first
    // attempt may have been paid.
    const reason = row.reason === REFUSED_ON_RESEND ? REFUSED_ON_RESEND : 'reconciliation_schedule_exhausted';
    return { do: 'attention', reason, ...noted };
  }
  return { do: 'reschedule', inMs, lastError, ...noted };
}
