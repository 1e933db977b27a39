import { hiddenByLag, legacyStatusOf, stepAt } from '../core/state.js';
import { formatPaise, parseAmount } from '../core/money.js';
import { BATCH_STATUS as S } from '../tables/get-batch-transfer-status.table.js';
import { fail } from '../tables/row.js';
import { queryParam, type LegacyEndpoint } from './endpoint.js';
import { processBatchIfDue, V2_BATCH_FORMAT } from './batch-processing.js';

/** GET /payout/v1/getBatchTransferStatus?batchTransferId= */
export const getBatchTransferStatus: LegacyEndpoint = {
  id: 'getBatchTransferStatus',
  fields: ['batchTransferId'],
  method: 'GET',
  paths: ['/payout/v1/getBatchTransferStatus'],
  group: 'status',
  summary: 'Get Batch Transfer Status',
  table: S,
  auth: 'bearer',
  row520: S.unknownError,
  handle({ world, query, fault }) {
    const id = queryParam(query, 'batchTransferId');
    if (!id) fail(S.missingId);
    const found = world.account.batches.get(id);
    // Each generation's status endpoint knows its own batches (their entries have its shape).
    const batch = found?.format === V2_BATCH_FORMAT ? undefined : found;
    // A lagging status endpoint does not know a batch it has accepted (statusLagMs).
    if (!batch || hiddenByLag(batch, world.clock.now(), fault?.statusLagMs)) fail(S.notFound);
    processBatchIfDue(world, batch);
    if (!batch.processed) return { row: S.pending };
    world.account.settle();
    const now = world.clock.now();
    const transfers = batch.results.map(({ entry, transferId, record, reason }) => {
      const step = record ? stepAt(record, now) : undefined;
      const amount = parseAmount(entry.amount);
      return {
        beneId: typeof entry.beneId === 'string' ? entry.beneId : '',
        transferId,
        referenceId: record ? Number(record.referenceId) : 0,
        bankAccount: record?.bankAccount ?? '',
        ifsc: record?.ifsc ?? '',
        amount: amount ? formatPaise(amount.paise) : '0.00',
        remarks: typeof entry.remarks === 'string' ? entry.remarks : '',
        status: step ? legacyStatusOf(step) : 'FAILED',
        reason: step?.reason || reason,
        utr: step?.status === 'SUCCESS' || step?.status === 'REVERSED' ? (record?.utr ?? '') : '',
        addedOn: new Date(batch.addedOn).toISOString(),
        processedOn: new Date(step?.at ?? batch.processAt).toISOString(),
      };
    });
    return {
      row: S.success,
      data: { rowCount: transfers.length, referenceId: batch.referenceId, transfers },
    };
  },
};
