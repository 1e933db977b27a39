import { COMMON, ACCESS_ROWS } from './common.table.js';
import { type LegacyTable } from './row.js';

/** Internal Transfer error table. */
export const INTERNAL_TRANSFER = {
  success: { subCode: '200', status: 'SUCCESS', message: 'Internal transfer successful' },
  ...ACCESS_ROWS,
  rechargeNotFound: { subCode: '404', status: 'ERROR', message: 'Recharge account not found' },
  notConfigured: {
    subCode: '422',
    status: 'ERROR',
    message: 'Account not configured, contact your account manager',
  },
  invalidAmount: {
    subCode: '422',
    status: 'ERROR',
    message: 'amount should be at least 1',
    documented: false,
  },
  invalidRechargeAccount: {
    subCode: '422',
    status: 'ERROR',
    message: 'rechargeAccount is required and must be alphanumeric',
    documented: false,
  },
  invalidTransferId: {
    subCode: '422',
    status: 'ERROR',
    message: 'transferId can have only letters, digits, hyphen and underscore, max 40 characters',
    documented: false,
  },
  insufficientBalance: {
    subCode: '412',
    status: 'ERROR',
    message: 'Insufficient balance in account',
    documented: false,
  },
  unknownError: COMMON.unknownError,
  tooManyRequests: COMMON.tooManyRequests,
} as const satisfies LegacyTable;
