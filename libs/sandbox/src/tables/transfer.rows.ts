import { type LegacyRow } from './row.js';

/** Messages shared by the transfer endpoints (directTransfer, requestTransfer, cardpay). */
const e = (subCode: string, message: string): LegacyRow => ({ subCode, status: 'ERROR', message });

export const TRANSFER_MESSAGES = {
  success: { subCode: '200', status: 'SUCCESS', message: 'Transfer completed successfully' },
  scheduled: { subCode: '201', status: 'SUCCESS', message: 'Transfer scheduled for next working day' },
  pendingAtBank: { subCode: '201', status: 'PENDING', message: 'Transfer is pending at the bank' },
  awaitingBene: {
    subCode: '201',
    status: 'PENDING',
    message: 'Awaiting confirmation from the beneficiary bank',
  },
  received: { subCode: '202', status: 'PENDING', message: 'Transfer request received, check status later' },
  multipleInstruments: (c: string) =>
    e(c, 'Multiple payment instruments available for the transfer mode, pass paymentInstrumentId'),
  instrumentInvalidForMode: (c: string) => e(c, 'paymentInstrumentId is not valid for the transfer mode'),
  instrumentNotAvailable: (c: string) => e(c, 'paymentInstrumentId is not available'),
  bankFailed: (c: string) => e(c, 'Transfer attempt failed at the bank'),
  beneNotAllowed: (c: string) => e(c, 'Transfer to this beneficiary is not allowed'),
  beneNotFound: e('404', 'Beneficiary does not exist'),
  transferIdExists: (c: string) => e(c, 'Transfer Id already exists'),
  wait30: (c: string) => e(c, 'Please wait for 30 minutes after adding a beneficiary'),
  amountRange: (c: string) => e(c, 'Amount should be between Rs. 100 and Rs. 100000'),
  beneLimit: (c: string) => e(c, 'Beneficiary limit exceeded'),
  accountLimit: (c: string) => e(c, 'Account limit exceeded'),
  insufficientBalance: (c: string) => e(c, 'Insufficient balance in account'),
  modeNotEnabled: (c: string) => e(c, 'Transfer mode is not enabled for the account'),
  walletFailed: (c: string) => e(c, 'Wallet transfer failed'),
  invalidIfsc: (c: string) => e(c, 'Invalid IFSC'),
  invalidAccountOrIfsc: (c: string) => e(c, 'Invalid bank account number or IFSC'),
  invalidTransferId: (c: string) => e(c, 'Invalid transferId'),
  invalidRemarks: (c: string) =>
    e(c, 'Remarks can have only letters, digits and whitespace, max 70 characters'),
} as const;
