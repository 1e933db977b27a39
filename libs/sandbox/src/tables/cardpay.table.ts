import { COMMON, ACCESS_ROWS } from './common.table.js';
import { type LegacyTable } from './row.js';
import { TRANSFER_MESSAGES as T } from './transfer.rows.js';

/** CardPay error table. */
export const CARDPAY = {
  success: T.success,
  pendingAtBank: T.pendingAtBank,
  transferIdExists: T.transferIdExists('400'),
  ...ACCESS_ROWS,
  insufficientBalance: T.insufficientBalance('412'),
  invalidTokenDetails: { subCode: '422', status: 'ERROR', message: 'Invalid token details' },
  amountBelowOne: { subCode: '422', status: 'ERROR', message: 'Amount should be at least 1.0' },
  invalidAccountOrIfsc: T.invalidAccountOrIfsc('422'),
  invalidName: { subCode: '422', status: 'ERROR', message: 'Invalid name' },
  invalidNetworkType: { subCode: '422', status: 'ERROR', message: 'Invalid networkType' },
  invalidCardType: { subCode: '422', status: 'ERROR', message: 'Invalid cardType' },
  invalidTransferId: {
    subCode: '422',
    status: 'ERROR',
    message: 'transferId can have only letters, digits, hyphen and underscore, max 40 characters',
  },
  invalidRemarks: { ...T.invalidRemarks('422'), documented: false },
  missingParams: {
    subCode: '422',
    status: 'ERROR',
    message: 'token, amount and transferId are required',
    documented: false,
  },
  unknownError: COMMON.unknownError,
  tooManyRequests: COMMON.tooManyRequests,
} as const satisfies LegacyTable;
