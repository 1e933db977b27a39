import { z } from 'zod';
import { type EndpointAdapter } from '../core/endpoint-adapter.js';
import { check, firstRefusal, ID_PATTERN, matches, type FieldRule } from '../core/field-rules.js';
import { classifyV2, type V2Decoder } from '../core/v2-classify.js';
import { getBatchTransferStatusV2Outcomes } from './get-batch-transfer-status-v2.outcomes.js';
import { decodeV2Transfer, type V2Transfer } from './v2-transfer.js';

/** Exactly one of the two: our batchTransferId, or the provider's id (`cf_batch_transfer_id`). */
export interface GetBatchTransferStatusV2Request {
  readonly batchTransferId?: string;
  readonly svcBatchTransferId?: string;
}

export interface BatchTransferStatusV2 {
  readonly batch_transfer_id: string;
  readonly cf_batch_transfer_id?: string | null;
  readonly status: string;
  /** Entries the provider could read, as v2 transfer objects. */
  readonly transfers: readonly V2Transfer[];
}

const rules: readonly FieldRule<GetBatchTransferStatusV2Request>[] = [
  check(
    (r) => Boolean(r.batchTransferId) !== Boolean(r.svcBatchTransferId),
    'batch_transfer_id_missing',
    'Either batch_transfer_id or cf_batch_transfer_id is required',
  ),
  matches(
    (r) => r.batchTransferId,
    ID_PATTERN,
    60,
    'batch_transfer_id_not_found',
    'batch_transfer_id is invalid',
  ),
  matches(
    (r) => r.svcBatchTransferId,
    /^[A-Za-z0-9_-]+$/,
    64,
    'cf_batch_transfer_id',
    'cf_batch_transfer_id is invalid',
  ),
];

const schema = z.object({
  batch_transfer_id: z.string(),
  cf_batch_transfer_id: z
    .union([z.string(), z.number()])
    .transform((v) => String(v))
    .nullish(),
  status: z.string(),
  transfers: z.array(z.unknown()).default([]),
});

/**
 * The batch is known: the call succeeded whatever its entries' states. An entry that does not
 * decode as a transfer is left out (its row stays as it is and is asked about again).
 */
const decode: V2Decoder<BatchTransferStatusV2> = (body) => {
  const p = schema.safeParse(body);
  if (!p.success) return undefined;
  const transfers = p.data.transfers.flatMap((t) => {
    const d = decodeV2Transfer(t);
    return d ? [d.data] : [];
  });
  const status = p.data.status.toUpperCase();
  return { data: { ...p.data, transfers }, outcome: 'success', reason: `Batch ${status}`, status };
};

/** Get Batch Transfer Status V2: `GET /payout/transfers/batch`. */
export const getBatchTransferStatusV2Adapter: EndpointAdapter<
  GetBatchTransferStatusV2Request,
  BatchTransferStatusV2
> = {
  name: 'getBatchTransferStatusV2',
  method: 'GET',
  path: '/payout/transfers/batch',
  host: 'base',
  auth: 'client-headers',
  rateClass: 'status',
  validate: (r) => firstRefusal(r, rules),
  build: (r): { query: Record<string, string> } =>
    r.batchTransferId
      ? { query: { batch_transfer_id: r.batchTransferId } }
      : { query: { cf_batch_transfer_id: r.svcBatchTransferId ?? '' } },
  classify: (answer) => classifyV2(getBatchTransferStatusV2Outcomes, answer, decode),
};
