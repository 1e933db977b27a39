import { type V2Row, type V2Table } from './row.js';
import { V2_TRANSFER_FIELDS, type V2TransferFieldRows } from './transfer-v2.table.js';
import { badRequest as bad } from './v2-common.table.js';

/** The entry rows: a standard transfer's field rows under `transfers[i].` (`[i]` is filled in). */
function entryRows(rows: V2TransferFieldRows): V2TransferFieldRows {
  const out: Record<string, V2Row> = {};
  for (const [k, row] of Object.entries(rows)) out[k] = { ...row, code: `transfers[i].${row.code}` };
  return out as V2TransferFieldRows;
}

export const V2_BATCH_ENTRY_FIELDS = entryRows(V2_TRANSFER_FIELDS);

/** Batch Transfer V2 error table. */
export const V2_BATCH_TRANSFER = {
  batchIdMissing: bad('batch_transfer_id_missing', 'batch_transfer_id is missing in the request', true),
  batchIdInvalid: bad(
    'batch_transfer_id_invalid',
    'batch_transfer_id should be alphanumeric with underscores, at most 60 characters',
    true,
  ),
  transfersMissing: bad('transfers_missing', 'transfers should be a non-empty array'),
  tooManyTransfers: bad('transfers_limit_exceeded', 'a batch holds at most 5000 transfers'),
  batchIdExists: {
    http: 409,
    type: 'invalid_request_error',
    code: 'batch_transfer_id_already_exists',
    message: 'batch_transfer_id already exists',
  },
  ...V2_BATCH_ENTRY_FIELDS,
} as const satisfies V2Table;

/** A row naming entry `[i]` with the entry's index. */
export function atEntry(row: V2Row, index: number): V2Row {
  return { ...row, code: row.code.replace('[i]', `[${index}]`) };
}
