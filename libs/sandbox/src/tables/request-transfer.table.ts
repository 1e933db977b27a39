import { COMMON, ACCESS_ROWS } from './common.table.js';
import { type LegacyTable } from './row.js';
import { TRANSFER_MESSAGES as T } from './transfer.rows.js';

/** Standard Transfer Sync v1.2 error table. */
export const REQUEST_TRANSFER = {
  success: T.success,
  scheduled: T.scheduled,
  pendingAtBank: T.pendingAtBank,
  awaitingBene: T.awaitingBene,
  noResponse: { subCode: '201', status: 'ERROR', message: 'Transfer triggered, no response from bank' },
  received: T.received,
  modeInvalidForBene: {
    subCode: '400',
    status: 'ERROR',
    message: 'Transfer mode not valid for the beneficiary',
  },
  transferIdExists: T.transferIdExists('400'),
  insufficientBalance: T.insufficientBalance('400'),
  wait30: T.wait30('400'),
  amountRange: T.amountRange('400'),
  walletFailed: T.walletFailed('400'),
  bankFailed: T.bankFailed('400'),
  beneNotAllowed: T.beneNotAllowed('400'),
  amountBelowOne: { subCode: '400', status: 'ERROR', message: 'Amount should be at least Rs. 1' },
  accountLimit: T.accountLimit('400'),
  modeNotEnabled: T.modeNotEnabled('400'),
  instrumentNotAvailable: T.instrumentNotAvailable('400'),
  instrumentInvalidForMode: T.instrumentInvalidForMode('400'),
  multipleInstruments: T.multipleInstruments('400'),
  beneLimit: T.beneLimit('400'),
  ...ACCESS_ROWS,
  beneNotFound: T.beneNotFound,
  transferIdMissing: {
    subCode: '412',
    status: 'ERROR',
    message: 'Invalid transferId: transferId is required',
  },
  invalidBeneId: { subCode: '422', status: 'ERROR', message: 'Invalid beneId' },
  invalidAccountOrIfsc: T.invalidAccountOrIfsc('422'),
  invalidIfsc: T.invalidIfsc('422'),
  amountDecimals: { subCode: '422', status: 'ERROR', message: 'Amount can have at most 2 decimal places' },
  invalidTransferId: T.invalidTransferId('422'),
  invalidRemarks: T.invalidRemarks('422'),
  invalidAmount: { subCode: '422', status: 'ERROR', message: 'Invalid amount', documented: false },
  invalidMode: { subCode: '422', status: 'ERROR', message: 'Invalid transfer mode', documented: false },
  tooManyRequests: COMMON.tooManyRequests,
} as const satisfies LegacyTable;
