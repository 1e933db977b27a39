import { FEE_AMOUNT_PATTERN, type TransferFee } from '#contracts';

const DECIMAL = new RegExp(FEE_AMOUNT_PATTERN);

/**
 * A fee amount as sent, when it is decimal text the ledger and the events can keep exactly; written
 * with at least 2 decimals as amounts are ("3" is "3.00", "0.5" is "0.50"), never rounded.
 */
function amountOf(v: string | null | undefined): string | undefined {
  const t = v?.trim();
  if (t === undefined || !DECIMAL.test(t)) return undefined;
  const [whole, frac = ''] = t.split('.');
  return `${whole}.${frac.padEnd(2, '0')}`;
}

/**
 * The fee of a transfer from the provider's service charge and tax (v2 `transfer_service_charge`,
 * `transfer_service_tax`, already text), in the service's terms (issue 32). Known when the charge
 * is sent as a decimal: "0" is a known zero (v2 sends the fields once a transfer is charged, so a
 * 0 there is the provider saying it charged nothing). No charge, or one that is not a plain
 * non-negative decimal: not known (undefined), never guessed. A tax without a charge is not a fee.
 */
export function transferFee(
  charge: string | null | undefined,
  tax: string | null | undefined,
): TransferFee | undefined {
  const c = amountOf(charge);
  if (c === undefined) return undefined;
  const t = amountOf(tax);
  return t === undefined ? { charge: c } : { charge: c, tax: t };
}
