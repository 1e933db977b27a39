import { z } from 'zod';
import { type V2Decoder } from '../core/v2-classify.js';
import { outcomeOfStatus, providerText } from './legacy-decoders.js';

const str = z.string().nullish();
// Amounts stay text: a JSON number is re-printed from its shortest form, which is exact for 2 places.
const decimalText = z
  .union([z.string(), z.number()])
  .transform((v) => String(v))
  .nullish();

const transferSchema = z.object({
  transfer_id: z.string(),
  /** The provider's id of the transfer, under its wire name (provider-v2.md, "Naming note"). */
  cf_transfer_id: str,
  /** The same under the interface document's neutral name, read where `cf_transfer_id` is absent. */
  svc_transfer_id: str,
  status: z.string(),
  status_code: str,
  status_description: providerText,
  beneficiary_details: z
    .object({
      beneficiary_id: str,
      beneficiary_instrument_details: z.record(z.string(), z.unknown()).nullish(),
    })
    .nullish(),
  currency: str,
  transfer_amount: decimalText,
  transfer_service_charge: decimalText,
  transfer_service_tax: decimalText,
  transfer_mode: str,
  transfer_utr: str,
  bank_ifsc: str,
  ifsc: str,
  added_on: str,
  updated_on: str,
});

export type V2Transfer = z.infer<typeof transferSchema>;

/** The provider's id of a v2 transfer: `cf_transfer_id` as the provider sends it, else the neutral name. */
export function providerTransferId(
  t: Pick<V2Transfer, 'cf_transfer_id' | 'svc_transfer_id'>,
): string | undefined {
  return t.cf_transfer_id ?? t.svc_transfer_id ?? undefined;
}

export const decodeV2Transfer: V2Decoder<V2Transfer> = (body) => {
  const p = transferSchema.safeParse(body);
  if (!p.success) return undefined;
  const t = p.data;
  // The transfer's status and code decide, through the table the connector reads too.
  const o = outcomeOfStatus(t.status, t.status_code);
  return {
    data: t,
    ...o,
    reason: t.status_code ? `${o.reason}: ${t.status_code}` : o.reason,
    status: t.status.toUpperCase(),
    code: t.status_code ?? undefined,
  };
};
