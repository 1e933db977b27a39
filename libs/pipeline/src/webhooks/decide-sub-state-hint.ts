import { type ProviderSubState } from '#contracts';
import { type PayoutRow, toPaise, type WebhookFields } from '#ledger';
import { type HintContext, type HintStep, type RecheckReason } from './decide-hint.js';

/**
 * What a webhook that announces a sub-state, not a status (the provider's TRANSFER_APPROVED: the
 * connector reads it as sub-state `approved`), does to its payout (issue 29). A PENDING payout
 * changes sub-state (PENDING -> PENDING, an event) where the webhook is bound to it as a status
 * webhook would have to be (v2; amount and the provider's ids agree); otherwise the provider is
 * asked now. A payout a person has (say, after an approval waited too long) is reopened, within
 * the reopen limit, and the status check decides. It never settles anything.
 */
export type SubStateHintStep = HintStep | { readonly do: 'sub-state'; readonly subState: ProviderSubState };

export function decideSubStateHint(
  row: PayoutRow,
  subState: ProviderSubState,
  f: WebhookFields,
  ctx: HintContext,
): SubStateHintStep {
  if (row.status === 'RECEIVED' || row.status === 'SUBMITTING') return { do: 'wait' };
  const ask = (why: RecheckReason): HintStep =>
    ctx.checkable ? { do: 'recheck', why } : { do: 'nothing', why: 'no_status_endpoint' };
  if (row.status === 'REQUIRES_ATTENTION') {
    if (!ctx.checkable) return { do: 'nothing', why: 'no_status_endpoint' };
    return ctx.reopenAllowed ? { do: 'reopen' } : { do: 'nothing', why: 'reopen_limited' };
  }
  if (row.status === 'UNKNOWN') return ask('unclear_row');
  if (row.status !== 'PENDING') return { do: 'nothing', why: 'backwards' };
  if (f.amount !== undefined && !sameAmount(f.amount, row.amount)) return ask('amount_mismatch');
  if (f.referenceId !== undefined && row.referenceId !== null && f.referenceId !== row.referenceId) {
    return ask('reference_mismatch');
  }
  if (f.svcTransferId !== undefined && row.svcTransferId !== null && f.svcTransferId !== row.svcTransferId) {
    return ask('reference_mismatch');
  }
  if (ctx.apiVersion === 'v1') return ask('v1_unbound');
  if (row.subState === subState) return { do: 'nothing', why: 'same_state' };
  return { do: 'sub-state', subState };
}

function sameAmount(a: string, b: string): boolean {
  try {
    return toPaise(a) === toPaise(b);
  } catch {
    return false;
  }
}
