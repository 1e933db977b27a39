import { type BatchItemRow, type BatchRow } from '#ledger';
import { attentionWatchDelay, deadlineOf, type LongWaitRules, longWaitStep } from '../shared/long-waits.js';
import { nextCheckDelay } from '../shared/check-schedule.js';

/*
 * When an open batch is asked next (issue 29): its entries may wait at the provider for days
 * (queued for low balance, approval pending in the provider's dashboard, scheduled for the next
 * working day), longer than RECONCILE_SCHEDULE. An entry in such a wait is checked on the same
 * slowing schedule, up to the same bound, as a single payout in it (long-waits.ts); the batch,
 * asked with one call for all its entries, goes by the wait that lasts longest. A person has the
 * batch only when no entry has time left: every long wait past its bound, and the generic schedule
 * spent for the entries that wait nowhere in particular.
 */

const TERMINAL_ENTRY = new Set(['SUCCESS', 'FAILED', 'REJECTED', 'REVERSED']);

/** The generic reason of a batch whose checks are spent. */
export const BATCH_SCHEDULE_EXHAUSTED = 'reconciliation_schedule_exhausted';

/** The next check of an open batch: in `inMs`, or no entry has time left (a person, for `reason`). */
export type BatchWaitStep = { readonly inMs: number } | { readonly exhausted: string };

/**
 * The next check of an open batch from its entries as they are now (after this check's answer is
 * applied) and its checks so far (`checkCount`, the generic schedule's index):
 * - an open entry PENDING in a long wait counts by its own schedule from when it began to wait
 *   (the entry's version time: a new sub-state is a new version), up to that wait's bound;
 * - any other open entry (no sub-state said, a short one, an unknown status) counts by the generic
 *   schedule;
 * the batch is asked at the soonest of those. Exhausted only when none has time left; the reason
 * then names the longest wait, or the generic one while an entry waits nowhere in particular.
 */
export function batchWaitStep(
  batch: Pick<BatchRow, 'accountId' | 'checkCount'>,
  entries: readonly Pick<BatchItemRow, 'status' | 'subState' | 'updatedAt'>[],
  schedule: readonly number[],
  waits: LongWaitRules | undefined,
  nowMs: number,
): BatchWaitStep {
  const soonest: number[] = [];
  let generic = false;
  let longest: { deadline: number; reason: string } | undefined;
  for (const e of entries) {
    if (TERMINAL_ENTRY.has(e.status)) continue;
    const waiting =
      waits && e.subState && e.status === 'PENDING'
        ? { accountId: batch.accountId, subState: e.subState, since: e.updatedAt }
        : undefined;
    const step = waiting && waits ? longWaitStep(waiting, waits, nowMs) : undefined;
    if (!waiting || !waits || !step) {
      generic = true;
      continue;
    }
    if ('inMs' in step) soonest.push(step.inMs);
    else {
      const deadline = deadlineOf(waiting, waits) ?? nowMs;
      if (!longest || deadline > longest.deadline) longest = { deadline, reason: step.exhausted };
    }
  }
  // No entry waits in a long wait (or none is open): the generic schedule alone, as before.
  if (generic || (soonest.length === 0 && !longest)) {
    const inMs = nextCheckDelay(schedule, batch.checkCount ?? 0);
    if (inMs !== undefined) soonest.push(inMs);
  }
  if (soonest.length > 0) return { inMs: Math.min(...soonest) };
  return { exhausted: generic || !longest ? BATCH_SCHEDULE_EXHAUSTED : longest.reason };
}

/**
 * The attention watch of a batch (issue 29): how long until a REQUIRES_ATTENTION batch, handed to
 * a person at `since` (its version time), is asked again; undefined: no watch, or it has ended (the
 * batch stays with the person).
 */
export function batchAttentionDelay(
  since: Date,
  waits: LongWaitRules | undefined,
  nowMs: number,
): number | undefined {
  return waits ? attentionWatchDelay(since, waits, nowMs) : undefined;
}

/**
 * An answer that names a provider reference for the batch other than the row's is another batch's
 * record: evidence for a person, never applied by the attention watch.
 */
export function answersAnotherBatch(
  batch: Pick<BatchRow, 'referenceId'>,
  answerReferenceId: string | undefined,
): boolean {
  return (
    answerReferenceId !== undefined && batch.referenceId !== null && answerReferenceId !== batch.referenceId
  );
}

/** Every entry is final: the batch is COMPLETED by the provider's answer. */
export function allEntriesFinal(entries: readonly Pick<BatchItemRow, 'status'>[]): boolean {
  return entries.length > 0 && entries.every((e) => TERMINAL_ENTRY.has(e.status));
}
