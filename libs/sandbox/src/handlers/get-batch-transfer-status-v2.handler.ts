import { isoUtc } from '../core/clock.js';
import { formatPaise, parseAmount } from '../core/money.js';
import { hiddenByLag, stepAt, type BatchRecord } from '../core/state.js';
import { type SandboxWorld } from '../core/world.js';
import { V2_BATCH_TRANSFER_STATUS as R } from '../tables/get-batch-transfer-status-v2.table.js';
import { failV2 } from '../tables/v2-common.table.js';
import { processBatchIfDue, V2_BATCH_FORMAT } from './batch-processing.js';
import { queryString, type V2Endpoint } from './v2-endpoint.js';
import { v2TransferView } from './v2-transfer-record.js';

const TERMINAL = new Set(['FAILED', 'REJECTED', 'REVERSED']);

/**
 * The batch's status (inferred: the provider shows RECEIVED and PENDING in examples only):
 * RECEIVED until processed; then REJECTED when every entry was refused, PENDING while an entry
 * is not final, COMPLETED once every entry is (a SUCCESS counts once COMPLETED).
 */
function batchStatus(world: SandboxWorld, batch: BatchRecord): string {
  if (!batch.processed) return 'RECEIVED';
  if (batch.results.every((r) => r.record === undefined)) return 'REJECTED';
  const now = world.clock.now();
  const open = batch.results.some((r) => {
    if (!r.record) return false;
    const s = stepAt(r.record, now);
    return !(TERMINAL.has(s.status) || (s.status === 'SUCCESS' && s.statusCode === 'COMPLETED'));
  });
  return open ? 'PENDING' : 'COMPLETED';
}

/** A refused entry as a Transfer object: REJECTED, its refusal's code as the status code. */
function refusedView(batch: BatchRecord, r: BatchRecord['results'][number]): Record<string, unknown> {
  const amount = parseAmount(r.entry.transfer_amount);
  const bene = r.entry.beneficiary_details;
  return {
    transfer_id: r.transferId,
    status: 'REJECTED',
    status_code: (r.code ?? 'REJECTED').toUpperCase(),
    status_description: r.reason,
    ...(typeof bene === 'object' && bene !== null ? { beneficiary_details: bene } : {}),
    transfer_amount: Number(formatPaise(amount && amount.decimals <= 2 ? amount.paise : 0n)),
    added_on: isoUtc(batch.addedOn),
    updated_on: isoUtc(batch.processAt),
  };
}

function findBatch(world: SandboxWorld, batchId: string, cfId: string): BatchRecord | undefined {
  const batches = world.account.batches;
  const found = batchId
    ? batches.get(batchId)
    : [...batches.values()].find((b) => String(b.referenceId) === cfId);
  // Each generation's status endpoint knows its own batches (their entries have its shape).
  return found?.format === V2_BATCH_FORMAT ? found : undefined;
}

/** GET /payout/transfers/batch?batch_transfer_id= | ?cf_batch_transfer_id= */
export const getBatchTransferStatusV2: V2Endpoint = {
  id: 'getBatchTransferStatusV2',
  fields: ['batch_transfer_id', 'cf_batch_transfer_id'],
  method: 'GET',
  paths: ['/payout/transfers/batch'],
  group: 'status',
  summary: 'Get Batch Transfer Status V2',
  table: R,
  handle({ world, query, fault }) {
    const batchId = queryString(query, 'batch_transfer_id') ?? '';
    const cfId = queryString(query, 'cf_batch_transfer_id') ?? '';
    if (!batchId && !cfId) failV2(R.batchIdMissing);
    const batch = findBatch(world, batchId, cfId);
    // A lagging status endpoint does not know a batch it has accepted (statusLagMs).
    if (!batch || hiddenByLag(batch, world.clock.now(), fault?.statusLagMs))
      failV2(batchId ? R.batchNotFound : R.cfBatchNotFound);
    processBatchIfDue(world, batch);
    world.account.settle();
    return {
      batch_transfer_id: batch.batchTransferId,
      cf_batch_transfer_id: String(batch.referenceId),
      status: batchStatus(world, batch),
      transfers: batch.results.map((r) =>
        r.record ? v2TransferView(world, r.record) : refusedView(batch, r),
      ),
    };
  },
};
