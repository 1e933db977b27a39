import { COMMON, ACCESS_ROWS } from './common.table.js';
import { type LegacyTable } from './row.js';

/** Self Withdrawal error table. Success uses `statusCode`, see the handler. */
export const SELF_WITHDRAWAL = {
  success: { subCode: '200', status: 'SUCCESS', message: 'Withdrawal request submitted' },
  ...ACCESS_ROWS,
  withdrawalIdMissing: { subCode: '412', status: 'ERROR', message: 'withdrawalId missing' },
  dailyLimit: {
    subCode: '412',
    status: 'ERROR',
    message: 'Self withdrawal limit of 3 per day reached',
    documented: false,
  },
  invalidAmount: { subCode: '422', status: 'ERROR', message: 'Invalid amount', documented: false },
  invalidRemarks: { subCode: '422', status: 'ERROR', message: 'Invalid remarks', documented: false },
  insufficientBalance: {
    subCode: '412',
    status: 'ERROR',
    message: 'Insufficient balance in account',
    documented: false,
  },
  unknownError: COMMON.unknownError,
  tooManyRequests: COMMON.tooManyRequests,
} as const satisfies LegacyTable;
