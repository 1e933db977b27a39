import { type PayoutStatus } from '#contracts';
import { maskDigitRuns } from '#observability';
import { type PayoutRow } from '#ledger';
import { type SubmissionResult } from './submit-payout.js';
import { traitsOf } from './payout-kinds.js';

/** The reason of a payout whose re-send the provider refused: a status check decides, or a person. */
export const REFUSED_ON_RESEND = 'refused_on_resend';

export interface Decision {
  readonly to: PayoutStatus;
  readonly reason?: string;
  readonly statusCode?: string;
  /** When the reconciler should look at the row next; undefined for a terminal state. */
  readonly recheckInMs?: number;
}

export interface DecisionTimings {
  /** First status check after PENDING or UNKNOWN. */
  readonly firstCheckMs: number;
  /** Re-send delay when the request was never processed (rate-limited, token refresh, not sent). */
  readonly resendMs: number;
  /** Re-send delay after fatal-config (credentials, IP allow-list): an operator must act. */
  readonly fatalConfigMs: number;
}

/**
 * What the ledger does with the answer to an initiation. The rules that matter: an answer that
 * might mean "sent" (unknown, duplicate) never leads to a new initiation, only to a status check
 * of the same transferId; and a refusal is final only on the first send (`attempt` 1).
 */
export function decideAfterSubmit(
  s: SubmissionResult,
  t: DecisionTimings,
  send: Pick<PayoutRow, 'attempt' | 'kind' | 'providerApi'>,
): Decision {
  // Nothing was sent this time, but an earlier attempt may have been: neither final nor re-sent.
  if (s.storedRequestInvalid) return { to: 'REQUIRES_ATTENTION', reason: 'stored_request_invalid' };
  const r = s.result;
  // The provider's own words say more than the table's summary. The client has cut secrets out;
  // an account number the provider may echo is masked here, before it reaches an event.
  const why = (fallback: string) => maskDigitRuns(r.diagnostics.message ?? fallback);
  switch (r.outcome) {
    case 'success':
      return { to: 'SUCCESS', statusCode: s.statusCode ?? r.diagnostics.subCode };
    case 'pending':
      return {
        to: 'PENDING',
        statusCode: s.statusCode ?? r.diagnostics.subCode,
        recheckInMs: t.firstCheckMs,
      };
    case 'failed':
      // A re-send follows an attempt whose answer was lost or unclear, and that attempt may have
      // been applied while the status endpoint still lagged behind. Then "Insufficient balance"
      // (the first attempt took it), "Duplicate transferId" or a 404 is the provider refusing a
      // repeat, not the payout: a status check decides, or a person, never the refusal itself.
      if (send.attempt > 1) return refusedOnResend(send);
      switch (r.kind) {
        case 'duplicate':
          // The provider holds this transferId already: it was sent before. Check, never re-pay.
          return { to: 'UNKNOWN', reason: 'already_exists_at_provider', recheckInMs: 0 };
        case 'expired':
          return {
            to: 'REJECTED',
            reason: why(r.reason),
            statusCode: r.diagnostics.code ?? r.diagnostics.subCode,
          };
        case 'invalid-request':
          return {
            to: r.diagnostics.sent ? 'FAILED' : 'REJECTED',
            reason: why(r.reason),
            statusCode: r.diagnostics.code ?? r.diagnostics.subCode,
          };
        case 'rejected':
        case 'not-found':
        case 'reversed':
          return {
            to: 'FAILED',
            reason: why(r.reason),
            statusCode: r.diagnostics.code ?? r.diagnostics.subCode,
          };
      }
      break;
    case 'unknown':
      return { to: 'UNKNOWN', reason: r.reason, recheckInMs: t.firstCheckMs };
    case 'retry-safe':
      return { to: 'SUBMITTING', reason: r.reason, recheckInMs: Math.max(r.retryAfterMs ?? 0, t.resendMs) };
    case 'auth-refresh':
      return { to: 'SUBMITTING', reason: r.reason, recheckInMs: t.resendMs };
    case 'fatal-config':
      return { to: 'SUBMITTING', reason: r.reason, recheckInMs: t.fatalConfigMs };
  }
  return { to: 'UNKNOWN', reason: 'unclassified', recheckInMs: t.firstCheckMs };
}

/**
 * A refused re-send: UNKNOWN with a status check now, whose answer decides (decide-check.ts never
 * re-sends it nor settles it on "not found"); a kind the provider cannot be asked about goes to a
 * person at once.
 */
function refusedOnResend(row: Pick<PayoutRow, 'kind' | 'providerApi'>): Decision {
  return traitsOf(row).status !== null
    ? { to: 'UNKNOWN', reason: REFUSED_ON_RESEND, recheckInMs: 0 }
    : { to: 'REQUIRES_ATTENTION', reason: REFUSED_ON_RESEND };
}
