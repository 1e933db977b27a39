import { type PayoutStatus, type ProviderSubState } from '#contracts';
import { maskDigitRuns } from '#observability';
import { type PayoutRow } from '#ledger';
import { type Diagnostics } from '#provider-client';
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
  /** This attempt may have reached the provider: recorded on the row (`maybe_reached`) by the same move. */
  readonly maybeReached?: boolean;
  /** A re-send refused while an earlier attempt may have reached: stamped on the row, kept through reopens. */
  readonly resendRefused?: boolean;
  /** Where a PENDING payout waits at the provider, when its answer says (issue 29). */
  readonly subState?: ProviderSubState;
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
 * of the same transferId; and a refusal is final only when no earlier attempt may have reached
 * the provider (the row's `maybe_reached`).
 */
export function decideAfterSubmit(
  s: SubmissionResult,
  t: DecisionTimings,
  send: Pick<PayoutRow, 'attempt' | 'kind' | 'providerApi' | 'maybeReached'>,
): Decision {
  const d = decideOutcome(s, t, send);
  return attemptMayHaveReached(s) ? { ...d, maybeReached: true } : d;
}

/**
 * Whether this attempt may have reached the provider: anything but an answer that it was
 * certainly not processed (a 429, a token refresh, refused credentials, nothing sent) or a
 * refusal of the transfer itself. The client's inner re-send after a 429 may follow an attempt an
 * intermediary forwarded (its flag, `earlierAttemptMayHaveReached` on the diagnostics, issue 29): then it may have.
 */
export function attemptMayHaveReached(s: SubmissionResult): boolean {
  if (s.storedRequestInvalid) return false;
  const r = s.result;
  if (innerResendMayHaveReached(r.diagnostics)) return true;
  switch (r.outcome) {
    case 'retry-safe':
    case 'auth-refresh':
    case 'fatal-config':
      return false;
    case 'failed':
      // "Already exists": the provider holds this transferId from an earlier attempt.
      return r.kind === 'duplicate';
    default:
      return true;
  }
}

/**
 * The client's flag (issue 29 defect 5): its own re-send after an HTTP 429 followed an attempt
 * an intermediary may have forwarded, so a refusal of this call is no first-send refusal.
 */
function innerResendMayHaveReached(d: Diagnostics): boolean {
  return d.earlierAttemptMayHaveReached === true;
}

/**
 * Whether an attempt before this one may have reached the provider: the row's record
 * (`maybe_reached`; a row built without it, by hand, counts as reached once re-sent), or the
 * client's own inner re-send of this attempt.
 */
function earlierMayHaveReached(
  s: SubmissionResult,
  send: Pick<PayoutRow, 'attempt' | 'maybeReached'>,
): boolean {
  if (innerResendMayHaveReached(s.result.diagnostics)) return true;
  return send.attempt > 1 && send.maybeReached !== false;
}

function decideOutcome(
  s: SubmissionResult,
  t: DecisionTimings,
  send: Pick<PayoutRow, 'attempt' | 'kind' | 'providerApi' | 'maybeReached'>,
): Decision {
  // Nothing was sent this time, but an earlier attempt may have been: neither final nor re-sent.
  if (s.storedRequestInvalid) return { to: 'REQUIRES_ATTENTION', reason: 'stored_request_invalid' };
  const r = s.result;
  // The provider's own words say more than the table's summary. The client has cut secrets out;
  // an account number the provider may echo is masked here, before it reaches an event.
  const why = (fallback: string) => maskDigitRuns(r.diagnostics.message ?? fallback);
  switch (r.outcome) {
    case 'success':
      return { to: 'SUCCESS', statusCode: s.statusCode };
    case 'pending':
      return {
        to: 'PENDING',
        statusCode: s.statusCode,
        recheckInMs: t.firstCheckMs,
        ...(r.subState ? { subState: r.subState } : {}),
      };
    case 'failed':
      // A re-send may follow an attempt whose answer was lost or unclear, and that attempt may
      // have been applied while the status endpoint still lagged behind. Then "Insufficient
      // balance" (the first attempt took it), "Duplicate transferId" or a 404 is the provider
      // refusing a repeat, not the payout: a status check decides, or a person, never the
      // refusal itself. When every earlier attempt was certainly not processed (a 429, a token
      // refresh), the refusal is the first the provider gave the payout: read as one (issue 29).
      if (earlierMayHaveReached(s, send)) return refusedOnResend(send);
      switch (r.kind) {
        case 'duplicate':
          // The provider holds this transferId already: it was sent before. Check, never re-pay.
          return { to: 'UNKNOWN', reason: 'already_exists_at_provider', recheckInMs: 0 };
        case 'expired':
          return {
            to: 'REJECTED',
            reason: why(r.reason),
            statusCode: r.diagnostics.evidence,
          };
        case 'invalid-request':
          return {
            to: r.diagnostics.sent ? 'FAILED' : 'REJECTED',
            reason: why(r.reason),
            statusCode: r.diagnostics.evidence,
          };
        case 'rejected':
        case 'not-found':
        case 'reversed':
          return {
            to: 'FAILED',
            reason: why(r.reason),
            statusCode: r.diagnostics.evidence,
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
 * A refused re-send after an attempt that may have reached: UNKNOWN with a status check now,
 * whose answer decides (decide-check.ts never re-sends it nor settles it on "not found", and hands
 * it to a person once REFUSED_RESEND_SETTLE_MS has passed); a kind the provider cannot be asked
 * about goes to a person at once. The fact is stamped on the row (`resend_refused_at`).
 */
function refusedOnResend(row: Pick<PayoutRow, 'kind' | 'providerApi'>): Decision {
  return traitsOf(row).status !== null
    ? { to: 'UNKNOWN', reason: REFUSED_ON_RESEND, recheckInMs: 0, resendRefused: true, maybeReached: true }
    : { to: 'REQUIRES_ATTENTION', reason: REFUSED_ON_RESEND, resendRefused: true, maybeReached: true };
}
