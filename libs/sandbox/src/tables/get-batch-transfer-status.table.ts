import { COMMON, ACCESS_ROWS } from './common.table.js';
import { type LegacyTable } from './row.js';

/** Get Batch Transfer Status error table. */
export const BATCH_STATUS = {
  success: { subCode: '200', status: 'SUCCESS', message: 'Data retrieved successfully' },
  pending: { subCode: '201', status: 'PENDING', message: 'Entries not processed yet' },
  ...ACCESS_ROWS,
  notFound: { subCode: '404', status: 'ERROR', message: 'Batch transfer Id does not exist' },
  fetchError: { subCode: '520', status: 'ERROR', message: 'Error while fetching data' },
  unknownError: { subCode: '520', status: 'ERROR', message: 'Unknown error at batch transfer' },
  missingId: { subCode: '422', status: 'ERROR', message: 'batchTransferId is required', documented: false },
  tooManyRequests: COMMON.tooManyRequests,
} as const satisfies LegacyTable;
