import { type PayoutStatus, type ProviderSubState } from '#contracts';
import { type PayoutRow } from '#ledger';
import { type PayoutFound } from '#provider-client';
import { nextCheckDelay } from '../shared/check-schedule.js';
import { type LongWaitRules, longWaitStep, type WaitStep } from './long-waits.js';

/*
 * The reconciler's decisions about the provider's sub-states (issue 29), apart from decide-check.ts
 * so its other rules stay readable: whether an answer is a new sub-state, and when a row waiting
 * in a long one is asked next.
 */

/** Whether a PENDING answer puts a PENDING row in another sub-state (one worth an event). */
export function isSubStateChange(
  row: Pick<PayoutRow, 'status' | 'subState'>,
  to: PayoutStatus,
  a: PayoutFound,
): boolean {
  if (row.status !== 'PENDING' || to !== 'PENDING') return false;
  // An answer that says no more than pending takes nothing back: the v1 status endpoint never
  // names a sub-state (the initiation's answer may: scheduled for the next working day, sent to
  // the bank), and only the provider's webhook says `approved`. A new sub-state replaces it; a
  // settled payout waits nowhere (the ledger clears it).
  if (a.subState === undefined) return false;
  return a.subState !== (row.subState ?? null);
}

/**
 * The step of a PENDING row waiting in a long sub-state; undefined: the generic schedule. Not for
 * UNKNOWN (a reopened payout keeps the sub-state it last had, but our own view of it is unclear:
 * the generic schedule until the provider says where it waits again).
 */
export function longWaitOf(
  row: Pick<PayoutRow, 'status' | 'subState' | 'accountId' | 'stateChangedAt'>,
  waits: LongWaitRules | undefined,
  nowMs: number,
): WaitStep | undefined {
  if (!waits || !row.subState || row.status !== 'PENDING') return undefined;
  return longWaitStep(
    { accountId: row.accountId, subState: row.subState, since: row.stateChangedAt },
    waits,
    nowMs,
  );
}

/**
 * When a payout entering a non-terminal state in `subState` is first asked again: its long wait's
 * first check, or the generic schedule's (undefined: the schedule is empty).
 */
export function firstCheckIn(
  accountId: string,
  subState: ProviderSubState | undefined,
  schedule: readonly number[],
  waits: LongWaitRules | undefined,
  nowMs: number,
): number | undefined {
  if (subState && waits) {
    const step = longWaitStep({ accountId, subState, since: new Date(nowMs) }, waits, nowMs);
    if (step && 'inMs' in step) return step.inMs;
  }
  return nextCheckDelay(schedule, 0);
}
