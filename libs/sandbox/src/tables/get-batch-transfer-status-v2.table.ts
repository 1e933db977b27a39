import { type V2Table } from './row.js';
import { badRequest as bad } from './v2-common.table.js';

/** Get Batch Transfer Status V2 error table. */
export const V2_BATCH_TRANSFER_STATUS = {
  batchIdMissing: bad('batch_transfer_id_missing', 'batch_transfer_id or cf_batch_transfer_id is required'),
  batchNotFound: {
    http: 404,
    type: 'invalid_request_error',
    code: 'batch_transfer_id_not_found',
    message: 'batch_transfer_id does not exist',
  },
  // The OAS example's code is literally `cf_batch_transfer_id` (sic): kept as published.
  cfBatchNotFound: {
    http: 404,
    type: 'invalid_request_error',
    code: 'cf_batch_transfer_id',
    message: 'cf_batch_transfer_id does not exist',
  },
} as const satisfies V2Table;
