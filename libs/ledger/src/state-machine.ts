import { type BatchStatus, type PayoutStatus } from '#contracts';

/**
 * Allowed moves of a single payout. Anything else is refused by the ledger step (PayoutLedger
 * throws IllegalTransitionError before writing). A late poll answer that would move a row
 * backwards is recognised by its caller with `canMove` first, and counted, never applied.
 */
const PAYOUT_TRANSITIONS: Readonly<Record<PayoutStatus, readonly PayoutStatus[]>> = {
  // AWAITING_APPROVAL: held by the account's approval policy in intake's own transaction (issue 30).
  // HELD_FOR_FUNDS: kept back by the funds-aware claim of an account with holding on (issue 32).
  RECEIVED: ['SUBMITTING', 'REJECTED', 'AWAITING_APPROVAL', 'HELD_FOR_FUNDS'],
  // Approved: RECEIVED again, for the executor; rejected or expired: REJECTED (nothing was sent).
  AWAITING_APPROVAL: ['RECEIVED', 'REJECTED'],
  // Sent when a reading shows room; held past the maximum hold: REJECTED (nothing was sent).
  HELD_FOR_FUNDS: ['SUBMITTING', 'REJECTED'],
  // REVERSED too: a status check of a row left SUBMITTING (a crash mid-call) may find the payout
  // already paid and returned, as from UNKNOWN.
  SUBMITTING: [
    'SUCCESS',
    'PENDING',
    'FAILED',
    'UNKNOWN',
    'REJECTED',
    'REVERSED',
    'SUBMITTING',
    'REQUIRES_ATTENTION',
  ],
  PENDING: ['SUCCESS', 'FAILED', 'REVERSED', 'REJECTED', 'REQUIRES_ATTENTION', 'PENDING'],
  UNKNOWN: ['SUCCESS', 'PENDING', 'FAILED', 'REJECTED', 'REVERSED', 'REQUIRES_ATTENTION', 'SUBMITTING'],
  SUCCESS: ['REVERSED'],
  FAILED: [],
  REJECTED: [],
  REVERSED: [],
  REQUIRES_ATTENTION: ['SUCCESS', 'FAILED', 'REVERSED', 'REJECTED', 'PENDING', 'UNKNOWN'],
};

export function canMove(from: PayoutStatus, to: PayoutStatus): boolean {
  return PAYOUT_TRANSITIONS[from].includes(to);
}

/**
 * The negative terminal states: upstream reads each as "the money did not move" and may pay again
 * under a new id, so each is watched (the failed watch, ADR 0018) where the kind can be asked about.
 */
export const NEGATIVE_STATES = ['FAILED', 'REJECTED', 'REVERSED'] as const satisfies readonly PayoutStatus[];

export function isNegative(s: string): boolean {
  return (NEGATIVE_STATES as readonly string[]).includes(s);
}

/** A terminal payout will not be called again; its stored secrets are erased. */
export function isTerminal(s: PayoutStatus): boolean {
  return s === 'FAILED' || s === 'REJECTED' || s === 'REVERSED' || s === 'SUCCESS';
}

const BATCH_TRANSITIONS: Readonly<Record<BatchStatus, readonly BatchStatus[]>> = {
  RECEIVED: ['SUBMITTING', 'REJECTED', 'AWAITING_APPROVAL', 'HELD_FOR_FUNDS'],
  AWAITING_APPROVAL: ['RECEIVED', 'REJECTED'],
  HELD_FOR_FUNDS: ['SUBMITTING', 'REJECTED'],
  SUBMITTING: [
    'PROCESSING',
    'COMPLETED',
    'FAILED',
    'UNKNOWN',
    'REJECTED',
    'SUBMITTING',
    'REQUIRES_ATTENTION',
  ],
  PROCESSING: ['PROCESSING', 'COMPLETED', 'REQUIRES_ATTENTION'],
  UNKNOWN: ['PROCESSING', 'COMPLETED', 'FAILED', 'REQUIRES_ATTENTION', 'SUBMITTING'],
  COMPLETED: [],
  FAILED: [],
  REJECTED: [],
  REQUIRES_ATTENTION: ['PROCESSING', 'COMPLETED', 'FAILED'],
};

/**
 * Event type per status: `payouts.payout.<name>`. RECEIVED is announced as "accepted" (its first
 * version) or "approved" (a later one: the only way back to RECEIVED is an approval; eventNameOf).
 */
export const PAYOUT_EVENT_NAME: Readonly<Record<PayoutStatus, string>> = {
  RECEIVED: 'accepted',
  AWAITING_APPROVAL: 'awaiting_approval',
  HELD_FOR_FUNDS: 'held_for_funds',
  SUBMITTING: 'submitting',
  PENDING: 'pending',
  UNKNOWN: 'unknown',
  SUCCESS: 'succeeded',
  FAILED: 'failed',
  REJECTED: 'rejected',
  REVERSED: 'reversed',
  REQUIRES_ATTENTION: 'requires_attention',
};

export const BATCH_EVENT_NAME: Readonly<Record<BatchStatus, string>> = {
  RECEIVED: 'accepted',
  AWAITING_APPROVAL: 'awaiting_approval',
  HELD_FOR_FUNDS: 'held_for_funds',
  SUBMITTING: 'submitting',
  PROCESSING: 'processing',
  UNKNOWN: 'unknown',
  COMPLETED: 'completed',
  FAILED: 'failed',
  REJECTED: 'rejected',
  REQUIRES_ATTENTION: 'requires_attention',
};

/**
 * The name of the event of a payout's or batch's version: RECEIVED after version 1 was reached by
 * an approval (AWAITING_APPROVAL -> RECEIVED is the only move into RECEIVED), so it says
 * "approved"; a function of (status, version), as the event of a version must be.
 */
export function eventNameOf(
  names: Readonly<Record<string, string>>,
  status: string,
  version: number,
): string {
  return status === 'RECEIVED' && version > 1 ? 'approved' : (names[status] ?? status.toLowerCase());
}

/** A move the state machine does not allow: a defect in the caller, never applied. */
export class IllegalTransitionError extends Error {
  constructor(
    readonly from: string,
    readonly to: string,
    subject: string,
  ) {
    super(`illegal state change of ${subject}: ${from} -> ${to}`);
    this.name = 'IllegalTransitionError';
  }
}

/** Throws unless the state machine allows a payout to move from `from` to `to`. */
export function assertPayoutMove(from: PayoutStatus, to: PayoutStatus, subject: string): void {
  if (!(PAYOUT_TRANSITIONS[from] ?? []).includes(to)) throw new IllegalTransitionError(from, to, subject);
}

/** Throws unless the state machine allows a batch to move from `from` to `to`. */
export function assertBatchMove(from: BatchStatus, to: BatchStatus, subject: string): void {
  if (!(BATCH_TRANSITIONS[from] ?? []).includes(to)) throw new IllegalTransitionError(from, to, subject);
}

/**
 * A provider signal that says a published terminal state was wrong (ADR 0018). Upstream pays
 * again after FAILED, REJECTED or REVERSED (the negative states), so a payout in one of them the
 * provider now holds as paid or pending could be paid twice; a SUCCESS the provider now holds as
 * failed means the money did not move. REVERSED after SUCCESS is a legal move, not a
 * contradiction; a lagging PENDING after SUCCESS is an old answer (backwards), not one either.
 */
export const CONTRADICTION_KINDS = [
  'paid_after_failure',
  'pending_after_failure',
  'failed_after_success',
] as const;
export type ContradictionKind = (typeof CONTRADICTION_KINDS)[number];

/** The contradiction between what was published and what the provider now says; undefined: none. */
export function contradictionOf(
  published: PayoutStatus,
  observed: PayoutStatus,
): ContradictionKind | undefined {
  if (isNegative(published)) {
    if (observed === 'SUCCESS') return 'paid_after_failure';
    if (observed === 'PENDING') return 'pending_after_failure';
    return undefined;
  }
  if (published === 'SUCCESS' && (observed === 'FAILED' || observed === 'REJECTED')) {
    return 'failed_after_success';
  }
  return undefined;
}
