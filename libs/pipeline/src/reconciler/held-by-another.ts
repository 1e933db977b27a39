import { type PayoutRow, toPaise } from '#ledger';
import { type PayoutFound } from '#provider-client';

/** The reason of a payout whose id the provider holds for another transfer (issue 29). */
export const HELD_BY_ANOTHER = 'transfer_id_held_by_another_transfer';

/**
 * Whether the transfer the provider holds under the payout's id is visibly another one (issue 29:
 * the provider has one namespace of transfer ids per account; a batch entry admitted before the
 * namespace was one, or a transfer made outside this service, may hold it, and a send of this
 * payout was then refused as a repeat). Compared where both sides have the value: the amount, the
 * beneficiary id the payout names, the provider's id the row holds (v1 referenceId, v2
 * cf_transfer_id). Its state is then not this payout's: a person decides, never SUCCESS nor FAILED.
 */
export function heldByAnother(row: PayoutRow, a: PayoutFound): boolean {
  if (a.amount !== undefined && !sameAmount(a.amount, row.amount)) return true;
  const beneId = row.request['beneId'];
  if (a.beneId !== undefined && typeof beneId === 'string' && a.beneId !== beneId) return true;
  if (a.referenceId !== undefined && row.referenceId !== null && a.referenceId !== row.referenceId)
    return true;
  return a.svcTransferId !== undefined && row.svcTransferId !== null && a.svcTransferId !== row.svcTransferId;
}

/** Amounts as paise; one the provider wrote unreadably is not a proof of another transfer. */
function sameAmount(a: string, b: string): boolean {
  try {
    return toPaise(a) === toPaise(b);
  } catch {
    return true;
  }
}
