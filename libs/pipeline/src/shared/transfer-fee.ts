import { type PayoutStatus } from '#contracts';
import { type OutcomeFields, type WebhookFields } from '#ledger';

/**
 * The provider's fee of a transfer (issue 32) is kept when the payout settles with money moved or
 * returned: SUCCESS, and REVERSED (the provider may keep its charge on a reversal). Another state's
 * answer may carry a fee field too; it is not written (nothing was paid for finance to reconcile).
 */
export function settles(to: PayoutStatus): boolean {
  return to === 'SUCCESS' || to === 'REVERSED';
}

/** The fee a kept webhook carries, as outcome fields of a move to `to` (none when it carries none). */
export function feeOfWebhook(f: WebhookFields, to: PayoutStatus): Pick<OutcomeFields, 'fee'> {
  if (f.feeCharge === undefined || !settles(to)) return {};
  return { fee: f.feeTax === undefined ? { charge: f.feeCharge } : { charge: f.feeCharge, tax: f.feeTax } };
}
