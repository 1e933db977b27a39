import { z } from 'zod';
import { type EndpointAdapter } from '../core/endpoint-adapter.js';
import { check, firstRefusal, ID_WITH_HYPHEN_PATTERN, matches, type FieldRule } from '../core/field-rules.js';
import { saysShortOfFunds } from '../core/http-answer.js';
import { classifyLegacy } from '../core/legacy-classify.js';
import { idString, outcomeOfStatus, providerText } from './legacy-decoders.js';
import { getTransferStatusOutcomes } from './get-transfer-status.outcomes.js';

/** Exactly one of the two. */
export interface GetTransferStatusRequest {
  readonly transferId?: string;
  readonly referenceId?: string;
}

const str = z.string().nullish();
const transferSchema = z.object({
  transferId: z.string().nullish(),
  referenceId: idString.nullish(),
  bankAccount: str,
  ifsc: str,
  beneId: str,
  amount: z
    .union([z.string(), z.number()])
    .transform((v) => String(v))
    .nullish(),
  status: z.string(),
  utr: str,
  addedOn: str,
  // `0000-00-00 00:00:00` means unset; kept as sent.
  processedOn: str,
  reason: providerText,
  transferMode: str,
  acknowledged: z.union([z.number(), z.string()]).nullish(),
  paymentInstrumentId: str,
});

export type LegacyTransferStatus = z.infer<typeof transferSchema>;

const rules: readonly FieldRule<GetTransferStatusRequest>[] = [
  check(
    (r) => Boolean(r.transferId) !== Boolean(r.referenceId),
    '412',
    'Either transferId or referenceId is required',
  ),
  matches((r) => r.transferId, ID_WITH_HYPHEN_PATTERN, 40, '404', 'TransferId is invalid or does not exist'),
  matches((r) => r.referenceId, /^\d+$/, 40, '404', 'ReferenceId is invalid or does not exist'),
];

export const getTransferStatusAdapter: EndpointAdapter<GetTransferStatusRequest, LegacyTransferStatus> = {
  name: 'getTransferStatus',
  method: 'GET',
  path: '/payout/v1.2/getTransferStatus',
  host: 'payout',
  auth: 'bearer',
  rateClass: 'status',
  validate: (r) => firstRefusal(r, rules),
  build: (r): { query: Record<string, string> } =>
    r.transferId ? { query: { transferId: r.transferId } } : { query: { referenceId: r.referenceId ?? '' } },
  classify: (answer) =>
    classifyLegacy(getTransferStatusOutcomes, answer, (env) => {
      const data = z.object({ transfer: transferSchema }).safeParse(env.data);
      if (!data.success) return undefined;
      const t = data.data.transfer;
      // The transfer's own status decides, through the table the connector reads too.
      const o = outcomeOfStatus(t.status);
      // v1 has no status code: a failure's reason says when the balance could not fund it.
      const short = o.outcome === 'failed' && o.kind === 'rejected' && saysShortOfFunds(t.reason);
      return {
        data: t,
        ...o,
        ...(short ? { shortOfFunds: true } : {}),
        reason: t.reason ? `${o.reason}: ${t.reason}` : o.reason,
      };
    }),
};
