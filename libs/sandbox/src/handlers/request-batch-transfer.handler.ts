import { parseAmount } from '../core/money.js';
import { BATCH_TRANSFER as R } from '../tables/request-batch-transfer.table.js';
import { COMMON } from '../tables/common.table.js';
import { fail } from '../tables/row.js';
import { decodeObject, type LegacyEndpoint, type Obj } from './endpoint.js';
import { acceptBatch, FORMAT_MODES, REQUIRED_BY_FORMAT } from './batch-processing.js';

const ENTRY_FIELDS = [
  'transferId',
  'amount',
  'beneId',
  'transferMode',
  'bankAccount',
  'ifsc',
  'vpa',
  'name',
  'email',
  'phone',
  'remarks',
];
/** Above this many entries the batch is only "received" (202) rather than "requested" (200). */
const RECEIVED_ABOVE = 100;

function decodeEntry(v: unknown, format: string): Obj {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) fail(R.paramsMissing);
  const e = v as Obj;
  for (const [k, x] of Object.entries(e)) {
    if (!ENTRY_FIELDS.includes(k)) fail(COMMON.unknownField);
    if (k !== 'amount' && typeof x !== 'string') fail(R.paramsMissing);
  }
  for (const k of REQUIRED_BY_FORMAT[format] ?? [])
    if (e[k] === undefined || e[k] === '') fail(R.paramsMissing);
  if (!parseAmount(e.amount)) fail(R.paramsMissing);
  return e;
}

/** POST /payout/v1/requestBatchTransfer: entries are processed later on the sandbox clock. */
export const requestBatchTransfer: LegacyEndpoint = {
  id: 'requestBatchTransfer',
  fields: ['batchTransferId', 'batchFormat', 'batch', 'deleteBene'],
  method: 'POST',
  paths: ['/payout/v1/requestBatchTransfer'],
  group: 'transfer',
  summary: 'Batch Transfer',
  table: R,
  auth: 'bearer',
  row520: R.unknownError,
  initiationKey: 'batchTransferId',
  handle({ world, body }) {
    const o = decodeObject(body, ['batchTransferId', 'batchFormat', 'batch', 'deleteBene']);
    const id = o.batchTransferId;
    if (typeof id !== 'string' || !/^[A-Za-z0-9_]{1,60}$/.test(id)) fail(R.batchIdInvalid);
    const format = o.batchFormat;
    if (format === undefined || format === null || format === '') fail(R.formatMissing);
    if (typeof format !== 'string' || REQUIRED_BY_FORMAT[format] === undefined) fail(R.invalidFormat);
    const account = world.account;
    if (account.flags.featureDisabled.includes('requestBatchTransfer')) fail(R.permissionDenied);
    const mode = FORMAT_MODES[format];
    if (mode !== undefined && account.flags.disabledModes.includes(mode)) fail(R.formatPermissionDenied);
    if (o.deleteBene !== undefined && typeof o.deleteBene !== 'boolean') fail(R.paramsMissing);
    if (!Array.isArray(o.batch) || o.batch.length === 0) fail(R.noEntries);
    if (o.batch.length > 500) fail(R.tooManyEntries);
    const entries = o.batch.map((e) => decodeEntry(e, format));
    if (account.batches.has(id)) fail(R.batchIdExists);
    const { referenceId } = acceptBatch(world, 'requestBatchTransfer', '200', {
      batchTransferId: id,
      format,
      entries,
    });
    return { row: entries.length > RECEIVED_ABOVE ? R.received : R.success, data: { referenceId } };
  },
};
