import { type Paise } from './money.js';

/**
 * The provider's fee on a payout, as the sandbox charges it (docs/SANDBOX.md, "Balance and
 * fees"): a flat service charge per transfer, set per merchant (none by default), and GST of
 * 18 % on the charge, rounded to the nearest paisa (half up). Integer paise throughout.
 */
export interface TransferFee {
  readonly charge: Paise;
  readonly tax: Paise;
}

/** GST on the service charge, in percent. */
export const FEE_TAX_PERCENT = 18n;

export const NO_FEE: TransferFee = { charge: 0n, tax: 0n };

/** The fee of one transfer under a service charge of `charge`. */
export function feeOf(charge: Paise): TransferFee {
  if (charge === 0n) return NO_FEE;
  return { charge, tax: (charge * FEE_TAX_PERCENT + 50n) / 100n };
}

/**
 * The fee a transfer object shows at `status`: its own once paid (SUCCESS, and REVERSED after it:
 * what was charged, returned with the amount), none before or when it failed or was rejected.
 */
export function chargedFee(fee: TransferFee | undefined, status: string): TransferFee {
  return status === 'SUCCESS' || status === 'REVERSED' ? (fee ?? NO_FEE) : NO_FEE;
}

/** What a transfer takes from the balance: its amount, its service charge and the tax on it. */
export function debitOf(t: { readonly amount: Paise; readonly fee?: TransferFee | undefined }): Paise {
  return t.amount + (t.fee?.charge ?? 0n) + (t.fee?.tax ?? 0n);
}
