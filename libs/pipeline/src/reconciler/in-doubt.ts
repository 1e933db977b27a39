import { type PayoutRow } from '#ledger';
import { traitsOf } from '../shared/payout-kinds.js';

export type InDoubtStep =
  | { readonly do: 'ask-status' }
  | { readonly do: 'resend' }
  | { readonly do: 'attention'; readonly reason: string };

/**
 * A SUBMITTING row whose lease ran out: its worker died (or lost its lease) mid-call, or the
 * provider said the last attempt was not processed. Only the latter may be sent again at once;
 * any attempt that may have reached the provider is asked about first, because a re-send while
 * the first is in flight or already accepted is a second initiation of the same transferId.
 */
export function onExpiredSubmission(
  row: Pick<PayoutRow, 'kind' | 'providerApi'>,
  lastError: Readonly<Record<string, unknown>> | null,
): InDoubtStep {
  if (lastError?.['processed'] === false) return { do: 'resend' };
  if (traitsOf(row).status !== null) return { do: 'ask-status' };
  return { do: 'attention', reason: 'in_doubt_resend_unsafe' };
}

/**
 * The status endpoint does not know the transferId. Sending it again is safe only where the
 * provider deduplicates the id ("already exists"): for the other kinds "not found" may be a
 * status endpoint that lags behind, and a re-send could pay twice.
 */
export function onNotFound(row: Pick<PayoutRow, 'kind' | 'providerApi'>): InDoubtStep {
  return traitsOf(row).resendIsSafe
    ? { do: 'resend' }
    : { do: 'attention', reason: 'in_doubt_resend_unsafe' };
}
