import { type BatchStatus } from '#contracts';
import { type BatchRow } from '#ledger';
import { type BatchSubmitted } from '#provider-client';
import { REFUSED_ON_RESEND } from '../shared/decide-after-submit.js';

export interface BatchDecision {
  readonly to: BatchStatus;
  readonly reason?: string;
  readonly statusCode?: string;
  readonly referenceId?: string;
  /** When the check worker should look at the batch next; undefined for a terminal state. */
  readonly recheckInMs?: number;
}

export interface BatchDecisionTimings {
  /** First status check after a send (RECONCILE_SCHEDULE's first delay). */
  readonly firstCheckMs: number;
  /** Re-send delay when the provider did not process the request. */
  readonly resendMs: number;
}

/**
 * What the ledger does with the answer to a batch send. As for a single payout
 * (decideAfterSubmit): "already exists" is a status check, never a failure; and a refusal is
 * final only on the first send. A re-send (`attempt` 2 or later) follows a send whose answer was
 * lost or a status call that did not know the batch, which may lag behind a batch the provider
 * took: any refusal then is UNKNOWN (refused_on_resend) and a status check now.
 */
export function decideAfterBatchSubmit(
  sent: BatchSubmitted,
  attempt: number,
  t: BatchDecisionTimings,
): BatchDecision {
  const r = sent.result;
  switch (r.outcome) {
    case 'success':
    case 'pending': {
      const referenceId = sent.referenceId;
      return { to: 'PROCESSING', ...(referenceId ? { referenceId } : {}), recheckInMs: t.firstCheckMs };
    }
    case 'failed':
      if (attempt > 1) return { to: 'UNKNOWN', reason: REFUSED_ON_RESEND, recheckInMs: 0 };
      if (r.kind === 'duplicate') {
        return { to: 'UNKNOWN', reason: 'already_exists_at_provider', recheckInMs: 0 };
      }
      return {
        to: r.diagnostics.sent ? 'FAILED' : 'REJECTED',
        reason: r.reason,
        ...(sent.refusalCode ? { statusCode: sent.refusalCode } : {}),
      };
    case 'unknown':
      return { to: 'UNKNOWN', reason: r.reason, recheckInMs: t.firstCheckMs };
    case 'retry-safe':
    case 'auth-refresh':
    case 'fatal-config':
      return { to: 'SUBMITTING', reason: r.reason, recheckInMs: t.resendMs };
  }
}

/**
 * Whether the provider refused a re-send of this batch and nothing has answered since: a batch
 * keeps its last reason, so the status says whether that reason is still the batch's story.
 */
function refusedOnResend(batch: Pick<BatchRow, 'status' | 'reason'>): boolean {
  return batch.status === 'UNKNOWN' && batch.reason === REFUSED_ON_RESEND;
}

/**
 * The status call does not know a batch that is not PROCESSING: send it again (same
 * batchTransferId, bounded by the worker), unless the provider already refused a re-send of it.
 * That refusal may be the sign the provider has the batch and its status lags: asked again on the
 * schedule, then a person (refused_on_resend).
 */
export function onBatchNotFound(batch: Pick<BatchRow, 'status' | 'reason'>): 'resend' | 'ask-later' {
  return refusedOnResend(batch) ? 'ask-later' : 'resend';
}

/** Why a batch whose checks are spent goes to a person: its refused re-send, when it had one. */
export function batchAttentionReason(batch: Pick<BatchRow, 'status' | 'reason'>, outcome: string): string {
  return refusedOnResend(batch) ? REFUSED_ON_RESEND : `reconciliation_schedule_exhausted (${outcome})`;
}
