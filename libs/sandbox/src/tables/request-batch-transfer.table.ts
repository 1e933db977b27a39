import { COMMON, ACCESS_ROWS } from './common.table.js';
import { type LegacyTable } from './row.js';

/** Batch Transfer error table. */
export const BATCH_TRANSFER = {
  success: {
    subCode: '200',
    status: 'SUCCESS',
    message: 'Batch transfer requested successfully, check processing status later',
  },
  received: { subCode: '202', status: 'PENDING', message: 'Batch request received' },
  ...ACCESS_ROWS,
  permissionDenied: { subCode: '403', status: 'ERROR', message: 'Permission denied' },
  invalidFormat: { subCode: '409', status: 'ERROR', message: 'Invalid batch format' },
  batchIdExists: { subCode: '409', status: 'ERROR', message: 'Batch transfer Id already exists' },
  batchIdInvalid: { subCode: '422', status: 'ERROR', message: 'batchTransferId missing or invalid' },
  tooManyEntries: { subCode: '422', status: 'ERROR', message: 'Batch can have at most 500 entries' },
  formatMissing: { subCode: '422', status: 'ERROR', message: 'batchFormat missing' },
  paramsMissing: { subCode: '422', status: 'ERROR', message: 'Transfer parameters missing' },
  noEntries: { subCode: '422', status: 'ERROR', message: 'No transfer entry in the batch' },
  formatPermissionDenied: {
    subCode: '422',
    status: 'ERROR',
    message: 'Permission denied for this batch format',
  },
  unknownError: COMMON.unknownError,
  batchFailed: { subCode: '520', status: 'ERROR', message: 'Batch request failed' },
  batchError: { subCode: '520', status: 'ERROR', message: 'Error in batch transfer' },
  tooManyRequests: COMMON.tooManyRequests,
} as const satisfies LegacyTable;
