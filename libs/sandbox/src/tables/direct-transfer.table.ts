import { COMMON, ACCESS_ROWS } from './common.table.js';
import { type LegacyTable } from './row.js';
import { TRANSFER_MESSAGES as T } from './transfer.rows.js';

/** Direct Transfer v1.2 error table (interface document, "Errors"). */
export const DIRECT_TRANSFER = {
  success: T.success,
  scheduled: T.scheduled,
  pendingAtBank: T.pendingAtBank,
  awaitingBene: T.awaitingBene,
  received: T.received,
  multipleInstruments: T.multipleInstruments('400'),
  instrumentInvalidForMode: T.instrumentInvalidForMode('400'),
  instrumentNotAvailable: T.instrumentNotAvailable('400'),
  bankFailed: T.bankFailed('400'),
  ...ACCESS_ROWS,
  beneNotAllowed: T.beneNotAllowed('403'),
  featureNotAvailable: { subCode: '403', status: 'ERROR', message: 'Feature not available for the account' },
  modeNotAvailable: {
    subCode: '403',
    status: 'ERROR',
    message: 'Transfer mode not available for the account',
  },
  beneNotFound: T.beneNotFound,
  transferIdExists: T.transferIdExists('409'),
  // Not in the document, seen from the provider: a repeat of an id first used by another transfer
  // endpoint is refused by the shared transfer store, with requestTransfer's code.
  transferIdUsedElsewhere: { ...T.transferIdExists('400'), documented: false },
  missingParams: {
    subCode: '412',
    status: 'ERROR',
    message: 'beneDetails, amount and transferId are required',
  },
  wait30: T.wait30('412'),
  amountRange: T.amountRange('412'),
  beneLimit: T.beneLimit('412'),
  accountLimit: T.accountLimit('412'),
  insufficientBalance: T.insufficientBalance('412'),
  invalidTag: { subCode: '412', status: 'ERROR', message: 'Invalid tag' },
  modeNotEnabled: T.modeNotEnabled('412'),
  invalidMode: { subCode: '412', status: 'ERROR', message: 'Invalid transfer mode' },
  invalidAmount: { subCode: '422', status: 'ERROR', message: 'Invalid amount' },
  invalidTransferId: T.invalidTransferId('422'),
  noPayeeVpa: { subCode: '422', status: 'ERROR', message: 'No payee VPA for the beneficiary' },
  invalidRemarks: T.invalidRemarks('422'),
  invalidBeneDetails: { subCode: '422', status: 'ERROR', message: 'Invalid beneficiary details' },
  noBankAccount: {
    subCode: '422',
    status: 'ERROR',
    message: 'Bank account or IFSC missing for the beneficiary',
  },
  walletFailed: T.walletFailed('422'),
  invalidIfsc: T.invalidIfsc('422'),
  invalidAccountOrIfsc: T.invalidAccountOrIfsc('422'),
  noResponse: { subCode: '520', status: 'ERROR', message: 'Transfer triggered, no response from bank' },
  tooManyRequests: COMMON.tooManyRequests,
} as const satisfies LegacyTable;
