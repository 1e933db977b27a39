import {
  authorizeOutcomes,
  beneHistoryOutcomes,
  cardpayOutcomes,
  createSdkTokenOutcomes,
  directTransferOutcomes,
  getBatchTransferStatusOutcomes,
  getBeneIdOutcomes,
  getTransferStatusOutcomes,
  getTransferStatusV2Outcomes,
  internalTransferOutcomes,
  processValidatedPayoutOutcomes,
  requestBatchTransferOutcomes,
  requestTransferOutcomes,
  selfWithdrawalOutcomes,
  type EndpointName,
  type LegacyOutcomeTable,
  type ProviderClient,
  type ProviderResult,
  type V2OutcomeTable,
} from '#provider-client';

type Call = (c: ProviderClient) => Promise<ProviderResult<unknown>>;

interface BaseCase {
  readonly name: EndpointName;
  readonly path: string;
  readonly call: Call;
  /** Requests that break one documented field rule each; none may reach the provider. */
  readonly invalid: readonly (readonly [why: string, call: Call])[];
}

export interface LegacyCase extends BaseCase {
  readonly kind: 'legacy';
  readonly bearer: boolean;
  readonly table: LegacyOutcomeTable;
  /** `data` answered with SUCCESS / PENDING rows. */
  readonly data?: unknown;
  /** Self withdrawal reports success in `statusCode`, not `subCode`. */
  readonly successCodeField?: 'statusCode';
}

export interface V2Case extends BaseCase {
  readonly kind: 'v2';
  readonly table: V2OutcomeTable;
  readonly okBody: unknown;
}

export const legacyTransferData = { referenceId: '1234', utr: 'UTR42', acknowledged: 1 };
export const v2Transfer = (status: string, code = status) => ({
  transfer_id: 'tr_v2_1',
  svc_transfer_id: '98765',
  status,
  status_code: code,
  status_description: 'state',
  beneficiary_details: { beneficiary_id: 'b1', beneficiary_instrument_details: { vpa: 'su***@upi' } },
  currency: 'INR',
  transfer_amount: 100.5,
  transfer_mode: 'upi',
  added_on: '2024-01-01T10:00:00',
  updated_on: '2024-01-01T10:00:01',
});
export const legacyStatusData = (status: string) => ({
  transfer: {
    transferId: 'tr_1',
    referenceId: 55,
    amount: '100.00',
    status,
    reason: 'ANY_OTHER_REASON',
    utr: '',
  },
});

const rt = { beneId: 'bene1', amount: '100.00', transferId: 'tr_1' };
const dt = {
  amount: '100.00',
  transferId: 'tr_1',
  beneDetails: { bankAccount: '026291800001191', ifsc: 'YESB0000262', name: 'A' },
};
const cp = {
  token: 'card-token-secret-123',
  amount: '10.00',
  transferId: 'tr-1',
  cardType: 'DEBIT' as const,
};
const bt = {
  batchTransferId: 'batch_1',
  batchFormat: 'BANK_ACCOUNT' as const,
  batch: [
    {
      transferId: 't1',
      amount: '10.50',
      bankAccount: '026291800001191',
      ifsc: 'YESB0000262',
      name: 'A',
      phone: '9999999999',
    },
  ],
};
const pvp = { transferId: 'tr_v2_1', transferAmount: '100.50', transferToken: 'transfer-token-secret' };
const sdk = {
  appId: 'app1',
  product: 'VKYC',
  metadata: { vkyc_request_id: 7 },
  authenticatedUser: { identifierType: 'userId', identifierValue: 42 },
};

export const LEGACY_CASES: readonly LegacyCase[] = [
  {
    kind: 'legacy',
    name: 'authorize',
    path: '/payout/v1/authorize',
    bearer: false,
    table: authorizeOutcomes,
    data: { token: 'tok', expiry: Math.floor(Date.now() / 1000) + 360 },
    call: (c) => c.authorize(),
    invalid: [],
  },
  {
    kind: 'legacy',
    name: 'requestTransfer',
    path: '/payout/v1.2/requestTransfer',
    bearer: true,
    table: requestTransferOutcomes,
    data: legacyTransferData,
    call: (c) => c.requestTransfer(rt),
    invalid: [
      ['missing beneId', (c) => c.requestTransfer({ ...rt, beneId: '' })],
      ['non-alphanumeric beneId', (c) => c.requestTransfer({ ...rt, beneId: 'bene-1' })],
      ['amount below 1.00', (c) => c.requestTransfer({ ...rt, amount: '0.99' })],
      ['amount with 3 decimals', (c) => c.requestTransfer({ ...rt, amount: '10.001' })],
      ['amount as float text', (c) => c.requestTransfer({ ...rt, amount: '1e3' })],
      ['transferId with hyphen', (c) => c.requestTransfer({ ...rt, transferId: 'tr-1' })],
      ['transferId over 40', (c) => c.requestTransfer({ ...rt, transferId: 'a'.repeat(41) })],
      ['remarks over 70', (c) => c.requestTransfer({ ...rt, remarks: 'a'.repeat(71) })],
      ['remarks with punctuation', (c) => c.requestTransfer({ ...rt, remarks: 'hi!' })],
      ['bad mode', (c) => c.requestTransfer({ ...rt, transferMode: 'cash' as 'upi' })],
    ],
  },
  {
    kind: 'legacy',
    name: 'directTransfer',
    path: '/payout/v1.2/directTransfer',
    bearer: true,
    table: directTransferOutcomes,
    data: legacyTransferData,
    call: (c) => c.directTransfer(dt),
    invalid: [
      ['missing amount', (c) => c.directTransfer({ ...dt, amount: '' })],
      ['amount below 1', (c) => c.directTransfer({ ...dt, amount: '0.50' })],
      ['transferId over 40', (c) => c.directTransfer({ ...dt, transferId: 'x'.repeat(41) })],
      ['no instrument', (c) => c.directTransfer({ ...dt, beneDetails: { name: 'A' } })],
      [
        'bad IFSC',
        (c) => c.directTransfer({ ...dt, beneDetails: { ...dt.beneDetails, ifsc: 'YESB1000262' } }),
      ],
      ['bad mode', (c) => c.directTransfer({ ...dt, transferMode: 'swift' as 'upi' })],
    ],
  },
  {
    kind: 'legacy',
    name: 'requestBatchTransfer',
    path: '/payout/v1/requestBatchTransfer',
    bearer: true,
    table: requestBatchTransferOutcomes,
    data: { referenceId: 456 },
    call: (c) => c.requestBatchTransfer(bt),
    invalid: [
      ['batchTransferId over 60', (c) => c.requestBatchTransfer({ ...bt, batchTransferId: 'b'.repeat(61) })],
      ['bad format', (c) => c.requestBatchTransfer({ ...bt, batchFormat: 'CASH' as 'UPI' })],
      ['empty batch', (c) => c.requestBatchTransfer({ ...bt, batch: [] })],
      [
        '501 entries',
        (c) =>
          c.requestBatchTransfer({
            ...bt,
            batch: Array.from({ length: 501 }, (_, i) => ({ ...bt.batch[0]!, transferId: `t${i}` })),
          }),
      ],
      [
        'entry missing ifsc',
        (c) => c.requestBatchTransfer({ ...bt, batch: [{ ...bt.batch[0]!, ifsc: undefined }] }),
      ],
      [
        'entry bad amount',
        (c) => c.requestBatchTransfer({ ...bt, batch: [{ ...bt.batch[0]!, amount: '1.005' }] }),
      ],
    ],
  },
  {
    kind: 'legacy',
    name: 'internalTransfer',
    path: '/payout/v1/internalTransfer',
    bearer: true,
    table: internalTransferOutcomes,
    data: { transferId: 'it_1' },
    call: (c) => c.internalTransfer({ amount: '5', rechargeAccount: 'RA1', transferId: 'it_1' }),
    invalid: [
      ['amount below 1', (c) => c.internalTransfer({ amount: '0.99', rechargeAccount: 'RA1' })],
      [
        'rechargeAccount not alphanumeric',
        (c) => c.internalTransfer({ amount: '5', rechargeAccount: 'RA-1' }),
      ],
      [
        'transferId over 40',
        (c) => c.internalTransfer({ amount: '5', rechargeAccount: 'RA1', transferId: 'i'.repeat(41) }),
      ],
    ],
  },
  {
    kind: 'legacy',
    name: 'selfWithdrawal',
    path: '/payout/v1/selfWithdrawal',
    bearer: true,
    table: selfWithdrawalOutcomes,
    successCodeField: 'statusCode',
    call: (c) => c.selfWithdrawal({ withdrawalId: 'w1', amount: '10.00' }),
    invalid: [
      ['missing withdrawalId', (c) => c.selfWithdrawal({ withdrawalId: '', amount: '10.00' })],
      ['bad amount', (c) => c.selfWithdrawal({ withdrawalId: 'w1', amount: '-1' })],
    ],
  },
  {
    kind: 'legacy',
    name: 'getBeneId',
    path: '/payout/v1/getBeneId',
    bearer: true,
    table: getBeneIdOutcomes,
    data: { beneId: 'B1' },
    call: (c) => c.getBeneId({ bankAccount: '026291800001191', ifsc: 'YESB0000262' }),
    invalid: [
      ['account too short', (c) => c.getBeneId({ bankAccount: '12345', ifsc: 'YESB0000262' })],
      ['account over 40', (c) => c.getBeneId({ bankAccount: '1'.repeat(41), ifsc: 'YESB0000262' })],
      ['IFSC 5th char not 0', (c) => c.getBeneId({ bankAccount: '026291800001191', ifsc: 'YESB1000262' })],
      ['only one given', (c) => c.getBeneId({ bankAccount: '026291800001191', ifsc: '' })],
    ],
  },
  {
    kind: 'legacy',
    name: 'getBatchTransferStatus',
    path: '/payout/v1/getBatchTransferStatus',
    bearer: true,
    table: getBatchTransferStatusOutcomes,
    data: {
      rowCount: 1,
      referenceId: 456,
      transfers: [{ transferId: 't1', referenceId: 9, amount: '10.50', status: 'SUCCESS', utr: 'U' }],
    },
    call: (c) => c.getBatchTransferStatus({ batchTransferId: 'batch_1' }),
    invalid: [['missing id', (c) => c.getBatchTransferStatus({ batchTransferId: '' })]],
  },
  {
    kind: 'legacy',
    name: 'cardpay',
    path: '/payout/v1/cardpay',
    bearer: true,
    table: cardpayOutcomes,
    data: legacyTransferData,
    call: (c) => c.cardpay(cp),
    invalid: [
      ['missing token', (c) => c.cardpay({ ...cp, token: '' })],
      ['amount below 1.00', (c) => c.cardpay({ ...cp, amount: '0.99' })],
      ['transferId with a dot', (c) => c.cardpay({ ...cp, transferId: 'tr.1' })],
      ['bad cardType', (c) => c.cardpay({ ...cp, cardType: 'PREPAID' as 'DEBIT' })],
      ['bad networkType', (c) => c.cardpay({ ...cp, networkType: 'AMEX' as 'VISA' })],
      ['cryptogram over 600', (c) => c.cardpay({ ...cp, cryptogram: 'c'.repeat(601) })],
      ['tokenExpiry not YYYY-MM', (c) => c.cardpay({ ...cp, tokenExpiry: '12/30' })],
      ['PAN sequence over 3', (c) => c.cardpay({ ...cp, tokenPANSequenceNumber: '0001' })],
    ],
  },
  {
    kind: 'legacy',
    name: 'beneHistory',
    path: '/payout/v1/beneHistory',
    bearer: true,
    table: beneHistoryOutcomes,
    data: {
      transfers: [
        {
          transferDate: '2024-01-01T00:00:00.000Z',
          amount: '1.00',
          mode: 'IMPS',
          beneId: 'b1',
          status: 'SUCCESS',
        },
      ],
    },
    call: (c) => c.beneHistory({ beneId: 'bene1', perPage: 10 }),
    invalid: [
      ['startDate without endDate', (c) => c.beneHistory({ beneId: 'b1', startDate: '2024-01-01' })],
      [
        'bad date format',
        (c) => c.beneHistory({ beneId: 'b1', startDate: '01-01-2024', endDate: '2024-01-02' }),
      ],
      [
        'start after end',
        (c) => c.beneHistory({ beneId: 'b1', startDate: '2024-02-01', endDate: '2024-01-02' }),
      ],
      [
        'endDate today',
        (c) => c.beneHistory({ beneId: 'b1', endDate: new Date().toISOString().slice(0, 10) }),
      ],
      ['perPage 26', (c) => c.beneHistory({ beneId: 'b1', perPage: 26 })],
      ['page 0', (c) => c.beneHistory({ beneId: 'b1', page: 0 })],
    ],
  },
  {
    kind: 'legacy',
    name: 'getTransferStatus',
    path: '/payout/v1.2/getTransferStatus',
    bearer: true,
    table: getTransferStatusOutcomes,
    data: legacyStatusData('SUCCESS'),
    call: (c) => c.getTransferStatus({ transferId: 'tr_1' }),
    invalid: [
      ['neither id', (c) => c.getTransferStatus({})],
      ['both ids', (c) => c.getTransferStatus({ transferId: 'tr_1', referenceId: '5' })],
    ],
  },
];

export const V2_CASES: readonly V2Case[] = [
  {
    kind: 'v2',
    name: 'processValidatedPayout',
    path: '/payout/transfers',
    table: processValidatedPayoutOutcomes,
    okBody: v2Transfer('RECEIVED'),
    call: (c) => c.processValidatedPayout(pvp),
    invalid: [
      ['missing token', (c) => c.processValidatedPayout({ ...pvp, transferToken: '' })],
      ['mode other than upi', (c) => c.processValidatedPayout({ ...pvp, transferMode: 'imps' as 'upi' })],
      ['amount with 3 decimals', (c) => c.processValidatedPayout({ ...pvp, transferAmount: '1.001' })],
    ],
  },
  {
    kind: 'v2',
    name: 'createSdkToken',
    path: '/verification/oauth/token',
    table: createSdkTokenOutcomes,
    okBody: { access_token: 'sdk-access-token-secret', expires_at: '2024-01-01 10:00:00 IST' },
    call: (c) => c.createSdkToken(sdk),
    invalid: [['missing app_id', (c) => c.createSdkToken({ ...sdk, appId: '' })]],
  },
  {
    kind: 'v2',
    name: 'getTransferStatusV2',
    path: '/payout/transfers',
    table: getTransferStatusV2Outcomes,
    okBody: v2Transfer('SUCCESS', 'COMPLETED'),
    call: (c) => c.getTransferStatusV2({ transferId: 'tr_v2_1' }),
    invalid: [['neither id', (c) => c.getTransferStatusV2({})]],
  },
];
