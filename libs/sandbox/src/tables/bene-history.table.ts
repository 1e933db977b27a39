import { COMMON, ACCESS_ROWS } from './common.table.js';
import { type LegacyTable } from './row.js';

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
