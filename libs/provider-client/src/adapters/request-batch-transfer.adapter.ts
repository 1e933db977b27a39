import { z } from 'zod';
import { type EndpointAdapter } from '../core/endpoint-adapter.js';
import { amountAtLeast, isAmount, JsonDecimal, writeJson } from '../core/decimal.js';
import {
  check,
  firstRefusal,
  ID_PATTERN,
  matches,
  oneOf,
  required,
  type FieldRule,
} from '../core/field-rules.js';
import { classifyLegacy } from '../core/legacy-classify.js';
import { dataDecoder, idString } from './legacy-decoders.js';
import { requestBatchTransferOutcomes } from './request-batch-transfer.outcomes.js';

export const BATCH_FORMATS = ['BENEFICIARY_ID', 'BANK_ACCOUNT', 'UPI', 'WALLET_A', 'WALLET_B'] as const;
export type BatchFormat = (typeof BATCH_FORMATS)[number];

export interface BatchEntry {
  readonly transferId: string;
  /** Decimal string, sent as a JSON number. */
  readonly amount: string;
  readonly beneId?: string;
  readonly transferMode?: 'banktransfer' | 'upi' | 'wallet_a' | 'wallet_b';
  readonly bankAccount?: string;
  readonly ifsc?: string;
  readonly vpa?: string;
  readonly name?: string;
  readonly email?: string;
  readonly phone?: string;
  readonly remarks?: string;
}

export interface RequestBatchTransferRequest {
  readonly batchTransferId: string;
  readonly batchFormat: BatchFormat;
  readonly batch: readonly BatchEntry[];
  readonly deleteBene?: boolean;
}

export interface BatchTransferAccepted {
  readonly referenceId: string;
}

/** Fields each format needs per entry (the interface's batch-format table). */
const NEEDS: Readonly<Record<BatchFormat, readonly (keyof BatchEntry)[]>> = {
  BENEFICIARY_ID: ['beneId', 'transferMode'],
  BANK_ACCOUNT: ['bankAccount', 'ifsc', 'name', 'phone'],
  UPI: ['vpa'],
  WALLET_A: ['phone'],
  WALLET_B: ['phone'],
};

const entryOk = (format: BatchFormat, e: BatchEntry): boolean =>
  Boolean(e.transferId) &&
  ID_PATTERN.test(e.transferId) &&
  e.transferId.length <= 40 &&
  isAmount(e.amount) &&
  amountAtLeast(e.amount, '0.01') &&
  (NEEDS[format] ?? []).every((k) => Boolean(e[k]));

const rules: readonly FieldRule<RequestBatchTransferRequest>[] = [
  required((r) => r.batchTransferId, '422', 'Batch Id missing or invalid'),
  matches((r) => r.batchTransferId, ID_PATTERN, 60, '422', 'Batch Id missing or invalid'),
  required((r) => r.batchFormat, '422', 'Batch format missing'),
  oneOf((r) => r.batchFormat, BATCH_FORMATS, '409', 'Invalid batch format'),
  check((r) => Array.isArray(r.batch) && r.batch.length > 0, '422', 'No transfer entry in the batch'),
  check((r) => r.batch.length <= 500, '422', 'More than 500 entries in the batch'),
  check(
    (r) => r.batch.every((e) => entryOk(r.batchFormat, e)),
    '422',
    'Transfer parameters missing or invalid',
  ),
  check(
    (r) => new Set(r.batch.map((e) => e.transferId)).size === r.batch.length,
    '422',
    'Duplicate transferId in the batch',
  ),
];

export const requestBatchTransferAdapter: EndpointAdapter<
  RequestBatchTransferRequest,
  BatchTransferAccepted
> = {
  name: 'requestBatchTransfer',
  method: 'POST',
  path: '/payout/v1/requestBatchTransfer',
  host: 'payout',
  auth: 'bearer',
  rateClass: 'transfer',
  validate: (r) => firstRefusal(r, rules),
  // A provider message may quote an entry's payee details: scrubbed whole, not only digit runs.
  secrets: (r) => r.batch.flatMap((e) => [e.bankAccount, e.vpa, e.phone, e.email]),
  build: (r) => ({
    body: writeJson({
      batchTransferId: r.batchTransferId,
      batchFormat: r.batchFormat,
      batch: r.batch.map((e) => ({ ...e, amount: new JsonDecimal(e.amount) })),
      deleteBene: r.deleteBene,
    }),
  }),
  classify: (answer) =>
    classifyLegacy(requestBatchTransferOutcomes, answer, dataDecoder(z.object({ referenceId: idString }))),
};
