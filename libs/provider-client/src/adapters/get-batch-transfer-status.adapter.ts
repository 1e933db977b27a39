import { z } from 'zod';
import { type EndpointAdapter } from '../core/endpoint-adapter.js';
import { firstRefusal, ID_PATTERN, matches, required } from '../core/field-rules.js';
import { classifyLegacy } from '../core/legacy-classify.js';
import { dataDecoder, idString, providerText } from './legacy-decoders.js';
import { getBatchTransferStatusOutcomes } from './get-batch-transfer-status.outcomes.js';

export interface GetBatchTransferStatusRequest {
  readonly batchTransferId: string;
}

const itemSchema = z.object({
  transferId: z.string(),
  referenceId: idString.optional(),
  beneId: z.string().nullish(),
  bankAccount: z.string().nullish(),
  ifsc: z.string().nullish(),
  // Kept as the provider's decimal text; never parsed into a float.
  amount: z.union([z.string(), z.number()]).transform((v) => String(v)),
  remarks: providerText,
  status: z.string(),
  reason: providerText,
  utr: z.string().nullish(),
  addedOn: z.string().nullish(),
  processedOn: z.string().nullish(),
});

const schema = z.object({
  rowCount: z.number().optional(),
  referenceId: idString.optional(),
  transfers: z.array(itemSchema).default([]),
});

export type BatchTransferStatus = z.infer<typeof schema>;

export const getBatchTransferStatusAdapter: EndpointAdapter<
  GetBatchTransferStatusRequest,
  BatchTransferStatus
> = {
  name: 'getBatchTransferStatus',
  method: 'GET',
  path: '/payout/v1/getBatchTransferStatus',
  host: 'payout',
  auth: 'bearer',
  rateClass: 'status',
  validate: (r) =>
    firstRefusal(r, [
      required((x: GetBatchTransferStatusRequest) => x.batchTransferId, '412', 'batchTransferId missing'),
      matches(
        (x: GetBatchTransferStatusRequest) => x.batchTransferId,
        ID_PATTERN,
        60,
        '422',
        'Invalid batchTransferId',
      ),
    ]),
  build: (r) => ({ query: { batchTransferId: r.batchTransferId } }),
  classify: (answer) => classifyLegacy(getBatchTransferStatusOutcomes, answer, dataDecoder(schema)),
};
