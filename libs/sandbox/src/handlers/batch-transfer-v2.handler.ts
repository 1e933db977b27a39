import { atEntry, V2_BATCH_ENTRY_FIELDS, V2_BATCH_TRANSFER as R } from '../tables/batch-transfer-v2.table.js';
import { failV2, V2Answer } from '../tables/v2-common.table.js';
import { acceptBatch, V2_BATCH_FORMAT } from './batch-processing.js';
import { type Obj } from './endpoint.js';
import { decodeV2Object, type V2Endpoint } from './v2-endpoint.js';
import { decodeV2Transfer } from './v2-transfer-flow.js';

const FIELDS = ['batch_transfer_id', 'transfers'];
const BATCH_ID_RE = /^[A-Za-z0-9_]{1,60}$/;
/** The OAS mentions a limit of 5,000 transfers (its text is cut short there). */
const MAX_TRANSFERS = 5000;

/** Every entry is checked now, as a standard transfer; the first bad one answers `transfers[i].…`. */
function decodeEntries(list: readonly unknown[]): Obj[] {
  return list.map((v, i) => {
    if (typeof v !== 'object' || v === null || Array.isArray(v))
      failV2(atEntry(V2_BATCH_ENTRY_FIELDS.transferIdMissing, i));
    try {
      decodeV2Transfer(v as Obj, V2_BATCH_ENTRY_FIELDS);
      return v as Obj;
    } catch (err) {
      if (err instanceof V2Answer && err.row.code.startsWith('transfers[i].')) failV2(atEntry(err.row, i));
      throw err;
    }
  });
}

/**
 * POST /payout/transfers/batch: Batch Transfer V2. The batch is accepted (RECEIVED) and its
 * entries become transfers `batchDelayMs` later on the sandbox clock, each as a standard transfer.
 */
export const batchTransferV2: V2Endpoint = {
  id: 'batchTransferV2',
  fields: FIELDS,
  method: 'POST',
  paths: ['/payout/transfers/batch'],
  group: 'transfer',
  summary: 'Batch Transfer V2',
  table: R,
  initiationKey: 'batch_transfer_id',
  handle({ world, body }) {
    const o = decodeV2Object(body, FIELDS);
    const id = o.batch_transfer_id;
    if (id === undefined || id === null || id === '') failV2(R.batchIdMissing);
    if (typeof id !== 'string' || !BATCH_ID_RE.test(id)) failV2(R.batchIdInvalid);
    if (!Array.isArray(o.transfers) || o.transfers.length === 0) failV2(R.transfersMissing);
    if (o.transfers.length > MAX_TRANSFERS) failV2(R.tooManyTransfers);
    const entries = decodeEntries(o.transfers as readonly unknown[]);
    const account = world.account;
    if (account.batches.has(id)) failV2(R.batchIdExists);
    const batch = acceptBatch(world, 'batchTransferV2', 'RECEIVED', {
      batchTransferId: id,
      format: V2_BATCH_FORMAT,
      entries,
    });
    return { batch_transfer_id: id, cf_batch_transfer_id: String(batch.referenceId), status: 'RECEIVED' };
  },
};
