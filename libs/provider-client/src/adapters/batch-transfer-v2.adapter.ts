import { z } from 'zod';
import { type EndpointAdapter } from '../core/endpoint-adapter.js';
import { writeJson } from '../core/decimal.js';
import { check, firstRefusal, ID_PATTERN, matches, required, type FieldRule } from '../core/field-rules.js';
import { classifyV2, type V2Decoder } from '../core/v2-classify.js';
import { batchTransferV2Outcomes } from './batch-transfer-v2.outcomes.js';
import { transferV2Body, transferV2Rules, type TransferV2Request } from './transfer-v2.adapter.js';

export interface BatchTransferV2Request {
  readonly batchTransferId: string;
  readonly transfers: readonly TransferV2Request[];
}

export interface BatchTransferV2Accepted {
  readonly batch_transfer_id: string;
  /** The provider's id of the batch, under its wire name. */
  readonly cf_batch_transfer_id?: string | null;
  readonly status: string;
}

/** The OAS mentions a limit of 5,000 transfers per batch. */
const MAX_TRANSFERS = 5000;

/** The first entry a standard transfer's rules refuse, reported as the provider would: `transfers[i].`. */
const entryRule: FieldRule<BatchTransferV2Request> = (r) => {
  for (const [i, t] of r.transfers.entries()) {
    const refusal = firstRefusal(t, transferV2Rules);
    if (refusal) return { code: `transfers[${i}].${refusal.code}`, message: refusal.message };
  }
  return undefined;
};

const rules: readonly FieldRule<BatchTransferV2Request>[] = [
  required((r) => r.batchTransferId, 'batch_transfer_id_missing', 'batch_transfer_id is missing'),
  matches(
    (r) => r.batchTransferId,
    ID_PATTERN,
    60,
    'batch_transfer_id_invalid',
    'batch_transfer_id is invalid',
  ),
  check((r) => r.transfers.length > 0, 'transfers_missing', 'transfers should be a non-empty array'),
  check((r) => r.transfers.length <= MAX_TRANSFERS, 'transfers_limit_exceeded', 'at most 5000 transfers'),
  entryRule,
  check(
    (r) => new Set(r.transfers.map((t) => t.transferId)).size === r.transfers.length,
    'transfers_duplicate_transfer_id',
    'a transfer_id appears twice in the batch',
  ),
];

const acceptedSchema = z.object({
  batch_transfer_id: z.string(),
  cf_batch_transfer_id: z
    .union([z.string(), z.number()])
    .transform((v) => String(v))
    .nullish(),
  status: z.string(),
});

/**
 * An accepted batch is followed by its status: whatever the 200 says about the batch as a whole,
 * its entries' states come from the status endpoint, so the send's answer is only "accepted".
 */
const decodeAccepted: V2Decoder<BatchTransferV2Accepted> = (body) => {
  const p = acceptedSchema.safeParse(body);
  if (!p.success) return undefined;
  const status = p.data.status.toUpperCase();
  return { data: p.data, outcome: 'pending', reason: `Batch ${status}`, status };
};

/** Batch Transfer V2: `POST /payout/transfers/batch`. */
export const batchTransferV2Adapter: EndpointAdapter<BatchTransferV2Request, BatchTransferV2Accepted> = {
  name: 'batchTransferV2',
  method: 'POST',
  path: '/payout/transfers/batch',
  host: 'base',
  auth: 'client-headers',
  rateClass: 'transfer',
  validate: (r) => firstRefusal(r, rules),
  secrets: (r) =>
    r.transfers.flatMap((t) =>
      'beneficiaryId' in t.beneficiary
        ? []
        : [t.beneficiary.bankAccount, t.beneficiary.vpa, t.beneficiary.phone, t.beneficiary.email],
    ),
  build: (r) => ({
    body: writeJson({ batch_transfer_id: r.batchTransferId, transfers: r.transfers.map(transferV2Body) }),
  }),
  classify: (answer) => classifyV2(batchTransferV2Outcomes, answer, decodeAccepted),
};
