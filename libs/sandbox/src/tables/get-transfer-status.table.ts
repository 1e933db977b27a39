import { COMMON, ACCESS_ROWS } from './common.table.js';
import { type LegacyTable } from './row.js';

/** Get Transfer Status (provider-facts). */
export const TRANSFER_STATUS = {
  success: { subCode: '200', status: 'SUCCESS', message: 'Details of transfer' },
  transferIdNotFound: { subCode: '404', status: 'ERROR', message: 'TransferId is invalid or does not exist' },
  referenceIdNotFound: {
    subCode: '404',
    status: 'ERROR',
    message: 'ReferenceId is invalid or does not exist',
  },
  idMissing: {
    subCode: '422',
    status: 'ERROR',
    message: 'transferId or referenceId is required',
    documented: false,
  },
  ...ACCESS_ROWS,
  tooManyRequests: COMMON.tooManyRequests,
} as const satisfies LegacyTable;
