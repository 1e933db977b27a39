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

/** Get Beneficiary History error table. */
export const BENE_HISTORY = {
  success: { subCode: '200', status: 'SUCCESS', message: 'Data retrieved successfully' },
  ...ACCESS_ROWS,
  methodNotAllowed: COMMON.methodNotAllowed,
  invalidDateRange: { subCode: '422', status: 'ERROR', message: 'Invalid date range' },
  pageBelowOne: { subCode: '422', status: 'ERROR', message: 'page should be at least 1' },
  invalidBeneId: { subCode: '422', status: 'ERROR', message: 'Invalid beneficiary Id' },
  dateFormat: {
    subCode: '422',
    status: 'ERROR',
    message: 'startDate and endDate should be in yyyy-mm-dd format',
  },
  startAfterEnd: { subCode: '422', status: 'ERROR', message: 'startDate cannot be after endDate' },
  perPageAbove: { subCode: '422', status: 'ERROR', message: 'perPage cannot be more than 25' },
  tooManyRequests: COMMON.tooManyRequests,
  unknownError: { subCode: '520', status: 'ERROR', message: 'Unknown error, retry later' },
} as const satisfies LegacyTable;

/** Beneficiary management (provider-facts; the interface document shows no table). */
export const BENEFICIARY = {
  added: { subCode: '200', status: 'SUCCESS', message: 'Beneficiary added successfully', documented: false },
  found: { subCode: '200', status: 'SUCCESS', message: 'Details of beneficiary', documented: false },
  removed: { subCode: '200', status: 'SUCCESS', message: 'Beneficiary removed', documented: false },
  exists: { subCode: '409', status: 'ERROR', message: 'Beneficiary Id already exists', documented: false },
  notFound: { subCode: '404', status: 'ERROR', message: 'Beneficiary does not exist', documented: false },
  invalid: { subCode: '422', status: 'ERROR', message: 'Invalid beneficiary details', documented: false },
  ...ACCESS_ROWS,
  tooManyRequests: COMMON.tooManyRequests,
} as const satisfies LegacyTable;
