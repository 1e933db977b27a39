import { COMMON, ACCESS_ROWS } from './common.table.js';
import { type LegacyTable } from './row.js';

/** Get Beneficiary ID error table. */
export const GET_BENE_ID = {
  success: { subCode: '200', status: 'SUCCESS', message: 'Beneficiary Id retrieved' },
  fetchError: {
    subCode: '52',
    status: 'ERROR',
    message: 'Error while fetching beneficiary Id, please retry',
  },
  ...ACCESS_ROWS,
  notFound: {
    subCode: '404',
    status: 'ERROR',
    message: 'Beneficiary does not exist for the given bank details',
  },
  invalidAccountAndIfsc: { subCode: '422', status: 'ERROR', message: 'Invalid bank account number and IFSC' },
  onlyOneGiven: { subCode: '422', status: 'ERROR', message: 'Both bankAccount and ifsc are required' },
  invalidIfsc: { subCode: '422', status: 'ERROR', message: 'Invalid IFSC' },
  tooManyRequests: COMMON.tooManyRequests,
} as const satisfies LegacyTable;
