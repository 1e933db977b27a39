import {
  CARD_TOKENS,
  CARDPAY,
  DIRECT_TRANSFER,
  GET_BENE_ID,
  BATCH_TRANSFER,
  BENE_HISTORY,
  INTERNAL_TRANSFER,
  REQUEST_TRANSFER,
  SELF_WITHDRAWAL,
  V2_COMMON,
  V2_TRANSFER,
  type LegacyRow,
  type V2Row,
} from '#sandbox';
import { SUCCESS_ACCOUNT, type Harness, type Res } from './harness.js';

type Send = (h: Harness, value: unknown) => Promise<Res>;

/** One field rule of the interface document: a value at the edge that passes, one that fails. */
export interface FieldRule {
  readonly rule: string;
  readonly send: Send;
  readonly ok: unknown;
  readonly bad: unknown;
  readonly row: LegacyRow | V2Row;
}

const direct: (field: string) => Send = (field) => (h, v) =>
  h.post('/payout/v1.2/directTransfer', {
    transferId: h.id(),
    amount: '10.00',
    beneDetails: { name: 'Payee', ...SUCCESS_ACCOUNT },
    [field]: v,
  });

const request: (field: string) => Send = (field) => async (h, v) => {
  const beneId = await h.addBene(SUCCESS_ACCOUNT);
  // `undefined` keeps the registered beneficiary's valid value.
  const value = v === undefined ? {} : { [field]: v };
  return h.post('/payout/v1.2/requestTransfer', { beneId, amount: '10.00', transferId: h.id(), ...value });
};

const card: (field: string, extra?: Record<string, unknown>) => Send =
  (field, extra = {}) =>
  (h, v) =>
    h.post('/payout/v1/cardpay', {
      token: CARD_TOKENS.success[0],
      amount: '5.00',
      transferId: h.id(),
      ...extra,
      [field]: v,
    });

const batch: (field: string) => Send = (field) => (h, v) =>
  h.post('/payout/v1/requestBatchTransfer', {
    batchTransferId: h.id('B'),
    batchFormat: 'BANK_ACCOUNT',
    batch: [{ transferId: h.id(), amount: '1.00', ...SUCCESS_ACCOUNT, name: 'N', phone: '9876543210' }],
    [field]: v,
  });

const entries = (n: number, h: Harness) =>
  Array.from({ length: n }, () => ({
    transferId: h.id(),
    amount: '1.00',
    ...SUCCESS_ACCOUNT,
    name: 'N',
    phone: '9876543210',
  }));

const history: (q: (v: unknown) => Record<string, string>) => Send = (q) => async (h, v) => {
  const beneId = await h.addBene(SUCCESS_ACCOUNT, false);
  return h.get('/payout/v1/beneHistory', { beneId, ...q(v) });
};

const v2: (field: string) => Send = (field) => async (h, v) => {
  const transferId = h.id('V');
  const token = await h.transferToken(transferId);
  return h.v2('POST', '/payout/transfers', {
    transfer_id: transferId,
    transfer_token: token,
    transfer_amount: '1.00',
    transfer_mode: 'upi',
    [field]: v,
  });
};

const X = (n: number): string => 'x'.repeat(n);

export const FIELD_RULES: readonly FieldRule[] = [
  {
    rule: 'directTransfer.amount at least 1.00',
    send: direct('amount'),
    ok: 1,
    bad: 0.99,
    row: DIRECT_TRANSFER.invalidAmount,
  },
  {
    rule: 'directTransfer.amount decimals allowed (2)',
    send: direct('amount'),
    ok: 12.34,
    bad: '1.234',
    row: DIRECT_TRANSFER.invalidAmount,
  },
  {
    rule: 'directTransfer.transferId max 40',
    send: direct('transferId'),
    ok: X(40),
    bad: X(41),
    row: DIRECT_TRANSFER.invalidTransferId,
  },
  {
    rule: 'directTransfer.transferId letters digits underscore',
    send: direct('transferId'),
    ok: 'a_B_9',
    bad: 'a-b',
    row: DIRECT_TRANSFER.invalidTransferId,
  },
  {
    rule: 'directTransfer.transferMode enumeration',
    send: direct('transferMode'),
    ok: 'neft',
    bad: 'NEFTX',
    row: DIRECT_TRANSFER.invalidMode,
  },
  {
    rule: 'directTransfer.paymentInstrumentId known',
    send: direct('paymentInstrumentId'),
    ok: 'PI_MAIN',
    bad: 'PI_X',
    row: DIRECT_TRANSFER.instrumentNotAvailable,
  },
  {
    rule: 'directTransfer.beneDetails strings',
    send: direct('beneDetails'),
    ok: { name: 'P', ...SUCCESS_ACCOUNT },
    bad: { name: 'P', bankAccount: 1 },
    row: DIRECT_TRANSFER.invalidBeneDetails,
  },
  {
    rule: 'requestTransfer.beneId alphanumeric',
    send: request('beneId'),
    ok: undefined,
    bad: 'bene_1',
    row: REQUEST_TRANSFER.invalidBeneId,
  },
  {
    rule: 'requestTransfer.amount at least 1.00',
    send: request('amount'),
    ok: '1.00',
    bad: '0.99',
    row: REQUEST_TRANSFER.amountBelowOne,
  },
  {
    rule: 'requestTransfer.amount at most 2 decimals',
    send: request('amount'),
    ok: '1.25',
    bad: '1.251',
    row: REQUEST_TRANSFER.amountDecimals,
  },
  {
    rule: 'requestTransfer.transferId max 40',
    send: request('transferId'),
    ok: X(40),
    bad: X(41),
    row: REQUEST_TRANSFER.invalidTransferId,
  },
  {
    rule: 'requestTransfer.transferMode enumeration',
    send: request('transferMode'),
    ok: 'imps',
    bad: 'swift',
    row: REQUEST_TRANSFER.invalidMode,
  },
  {
    rule: 'requestTransfer.remarks max 70',
    send: request('remarks'),
    ok: X(70),
    bad: X(71),
    row: REQUEST_TRANSFER.invalidRemarks,
  },
  {
    rule: 'requestTransfer.remarks letters digits whitespace',
    send: request('remarks'),
    ok: 'rent for May 2024',
    bad: 'rent, May',
    row: REQUEST_TRANSFER.invalidRemarks,
  },
  {
    rule: 'requestBatchTransfer.batchTransferId max 60',
    send: batch('batchTransferId'),
    ok: X(60),
    bad: X(61),
    row: BATCH_TRANSFER.batchIdInvalid,
  },
  {
    rule: 'requestBatchTransfer.batchTransferId letters digits underscore',
    send: batch('batchTransferId'),
    ok: 'b_1',
    bad: 'b-1',
    row: BATCH_TRANSFER.batchIdInvalid,
  },
  {
    rule: 'requestBatchTransfer.batchFormat enumeration',
    send: batch('batchFormat'),
    ok: 'BANK_ACCOUNT',
    bad: 'bank_account',
    row: BATCH_TRANSFER.invalidFormat,
  },
  {
    rule: 'requestBatchTransfer.deleteBene boolean',
    send: batch('deleteBene'),
    ok: true,
    bad: 'yes',
    row: BATCH_TRANSFER.paramsMissing,
  },
  {
    rule: 'requestBatchTransfer.batch 1 to 500 entries',
    send: (h, v) => batch('batch')(h, entries(Number(v), h)),
    ok: 500,
    bad: 501,
    row: BATCH_TRANSFER.tooManyEntries,
  },
  {
    rule: 'requestBatchTransfer.entry fields required by format (UPI: vpa)',
    send: (h, v) =>
      h.post('/payout/v1/requestBatchTransfer', {
        batchTransferId: h.id('B'),
        batchFormat: 'UPI',
        batch: [{ transferId: h.id(), amount: '1', name: 'N', ...(v ? { vpa: v } : {}) }],
      }),
    ok: 'success@upi',
    bad: '',
    row: BATCH_TRANSFER.paramsMissing,
  },
  {
    rule: 'internalTransfer.amount at least 1',
    send: (h, v) => h.post('/payout/v1/internalTransfer', { amount: v, rechargeAccount: 'RA0001' }),
    ok: 1,
    bad: 0.5,
    row: INTERNAL_TRANSFER.invalidAmount,
  },
  {
    rule: 'internalTransfer.rechargeAccount alphanumeric',
    send: (h, v) => h.post('/payout/v1/internalTransfer', { amount: 1, rechargeAccount: v }),
    ok: 'RA0001',
    bad: 'RA_0001',
    row: INTERNAL_TRANSFER.invalidRechargeAccount,
  },
  {
    rule: 'internalTransfer.transferId letters digits hyphen underscore max 40',
    send: (h, v) =>
      h.post('/payout/v1/internalTransfer', { amount: 1, rechargeAccount: 'RA0001', transferId: v }),
    ok: `a-${X(38)}`,
    bad: 'a.b',
    row: INTERNAL_TRANSFER.invalidTransferId,
  },
  {
    rule: 'selfWithdrawal.withdrawalId must be present',
    send: (h, v) => h.post('/payout/v1/selfWithdrawal', { withdrawalId: v, amount: 1 }),
    ok: 'W1',
    bad: undefined,
    row: SELF_WITHDRAWAL.withdrawalIdMissing,
  },
  {
    rule: 'getBeneId.bankAccount 6 to 40 alphanumeric',
    send: (h, v) => h.get('/payout/v1/getBeneId', { bankAccount: String(v), ifsc: 'SBIN0000001' }),
    ok: '123456',
    bad: '12345',
    row: GET_BENE_ID.invalidAccountAndIfsc,
  },
  {
    rule: 'getBeneId.ifsc 11 characters, 5th is 0',
    send: (h, v) => h.get('/payout/v1/getBeneId', { bankAccount: '123456', ifsc: String(v) }),
    ok: 'SBIN0ABC123',
    bad: 'SBIN0ABC12',
    row: GET_BENE_ID.invalidIfsc,
  },
  {
    rule: 'cardpay.amount at least 1.00',
    send: card('amount'),
    ok: '1.00',
    bad: '0.99',
    row: CARDPAY.amountBelowOne,
  },
  {
    rule: 'cardpay.transferId letters digits hyphen underscore max 40',
    send: card('transferId'),
    ok: `a-_${X(37)}`,
    bad: X(41),
    row: CARDPAY.invalidTransferId,
  },
  {
    rule: 'cardpay.cardType DEBIT or CREDIT',
    send: card('cardType'),
    ok: 'CREDIT',
    bad: 'credit',
    row: CARDPAY.invalidCardType,
  },
  {
    rule: 'cardpay.networkType VISA or MASTERCARD',
    send: card('networkType'),
    ok: 'VISA',
    bad: 'RUPAY',
    row: CARDPAY.invalidNetworkType,
  },
  {
    rule: 'cardpay.cryptogram max 600',
    send: card('cryptogram'),
    ok: X(600),
    bad: X(601),
    row: CARDPAY.invalidTokenDetails,
  },
  {
    rule: 'cardpay.tokenExpiry YYYY-MM',
    send: card('tokenExpiry'),
    ok: '2031-01',
    bad: '01/31',
    row: CARDPAY.invalidTokenDetails,
  },
  {
    rule: 'cardpay.tokenExpiry required for MASTERCARD',
    send: card('tokenExpiry', { networkType: 'MASTERCARD' }),
    ok: '2031-01',
    bad: '',
    row: CARDPAY.invalidTokenDetails,
  },
  {
    rule: 'cardpay.tokenExpiry cannot be null',
    send: card('tokenExpiry'),
    ok: '2031-01',
    bad: null,
    row: CARDPAY.invalidTokenDetails,
  },
  {
    rule: 'cardpay.tokenPANSequenceNumber up to 3 alphanumeric',
    send: card('tokenPANSequenceNumber'),
    ok: 'A01',
    bad: 'A012',
    row: CARDPAY.invalidTokenDetails,
  },
  {
    rule: 'cardpay.remarks max 70',
    send: card('remarks'),
    ok: X(70),
    bad: X(71),
    row: CARDPAY.invalidRemarks,
  },
  {
    rule: 'cardpay.name letters',
    send: card('name'),
    ok: 'Card Holder',
    bad: '#1',
    row: CARDPAY.invalidName,
  },
  {
    rule: 'beneHistory.perPage max 25',
    send: history((v) => ({ perPage: String(v) })),
    ok: 25,
    bad: 26,
    row: BENE_HISTORY.perPageAbove,
  },
  {
    rule: 'beneHistory.page min 1',
    send: history((v) => ({ page: String(v) })),
    ok: 1,
    bad: 0,
    row: BENE_HISTORY.pageBelowOne,
  },
  {
    rule: 'beneHistory.startDate yyyy-mm-dd',
    send: history((v) => ({ startDate: String(v), endDate: '2020-01-31' })),
    ok: '2020-01-01',
    bad: '2020-1-1',
    row: BENE_HISTORY.dateFormat,
  },
  {
    rule: 'beneHistory.endDate mandatory with startDate',
    send: history((v) => ({
      startDate: '2020-01-01',
      ...(typeof v === 'string' && v !== '' ? { endDate: v } : {}),
    })),
    ok: '2020-01-02',
    bad: '',
    row: BENE_HISTORY.invalidDateRange,
  },
  {
    rule: 'beneHistory.startDate not after endDate',
    send: history((v) => ({ startDate: String(v), endDate: '2020-01-10' })),
    ok: '2020-01-10',
    bad: '2020-01-11',
    row: BENE_HISTORY.startAfterEnd,
  },
  {
    rule: 'v2.transfer_amount string',
    send: v2('transfer_amount'),
    ok: '1.50',
    bad: 1.5,
    row: V2_TRANSFER.amountInvalid,
  },
  {
    rule: 'v2.transfer_mode upi only',
    send: v2('transfer_mode'),
    ok: 'upi',
    bad: 'imps',
    row: V2_TRANSFER.modeInvalid,
  },
  {
    rule: 'v2.transfer_remarks optional string',
    send: v2('transfer_remarks'),
    ok: 'thanks',
    bad: 5,
    row: V2_TRANSFER.remarksInvalid,
  },
  {
    rule: 'v2.fundsource_id optional string',
    send: v2('fundsource_id'),
    ok: 'fs_1',
    bad: false,
    row: V2_TRANSFER.fundsourceInvalid,
  },
  {
    rule: 'v2.x-api-version YYYY-MM-DD',
    send: (h, v) =>
      h.v2('GET', '/payout/transfers?transfer_id=none', undefined, { 'x-api-version': String(v) }),
    ok: '2024-01-01',
    bad: '2024-1-1',
    row: V2_COMMON.apiVersionInvalid,
  },
];
