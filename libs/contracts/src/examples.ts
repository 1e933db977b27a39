import { type Command, type Query, type QueryReply } from './types.js';

/**
 * One example of every command: in the AsyncAPI document and docs/CONTRACTS.md, validated by the
 * unit tests, and run against the provider sandbox by test/pipeline/contract-examples.int-spec.ts
 * (BENE42 is the sandbox's test beneficiary; values in angle brackets are placeholders, see
 * EXAMPLE_PLACEHOLDERS).
 */
export const COMMAND_EXAMPLES: readonly Command[] = [
  {
    type: 'payout.standard_transfer',
    accountId: 'default',
    requestId: 'req-7f3a',
    data: {
      transferId: 'tr_1001',
      beneId: 'BENE42',
      amount: '1250.50',
      transferMode: 'imps',
      remarks: 'Invoice 1001',
    },
  },
  {
    type: 'payout.direct_transfer',
    data: {
      transferId: 'tr_1002',
      amount: '499.00',
      transferMode: 'banktransfer',
      beneDetails: {
        name: 'Asha Rao',
        phone: '9876543210',
        bankAccount: '026291800001191',
        ifsc: 'YESB0000262',
      },
    },
  },
  {
    type: 'payout.validated_upi_payout',
    data: {
      transferId: 'tr_1003',
      amount: '99.99',
      transferToken: '<token from Validate Payout>',
      transferRemarks: 'refund',
    },
  },
  {
    type: 'payout.card_payout',
    data: {
      transferId: 'tr_1004',
      amount: '20.00',
      cardToken: '<card token>',
      cardType: 'CREDIT',
      networkType: 'MASTERCARD',
      cryptogram: '<cryptogram>',
      tokenExpiry: '2030-12',
    },
  },
  {
    type: 'payout.batch_transfer',
    data: {
      batchTransferId: 'batch_2001',
      batchFormat: 'BANK_ACCOUNT',
      entries: [
        {
          transferId: 'b2001_1',
          amount: '10.00',
          bankAccount: '026291800001191',
          ifsc: 'YESB0000262',
          name: 'One',
          phone: '9876543210',
        },
        {
          transferId: 'b2001_2',
          amount: '12.00',
          bankAccount: '026291800001191',
          ifsc: 'YESB0000262',
          name: 'Two',
          phone: '9876543211',
        },
      ],
    },
  },
  {
    type: 'payout.internal_transfer',
    data: { transferId: 'int_3001', amount: '5000.00', rechargeAccount: 'RA0001' },
  },
  {
    type: 'payout.self_withdrawal',
    data: { withdrawalId: 'wd_4001', amount: '100.00', remarks: 'month end' },
  },
];

/**
 * The placeholders of the examples (a secret or a single-use value no document can hold), and
 * what to put there against the provider sandbox (docs/SANDBOX.md). A test fails on any other.
 */
export const EXAMPLE_PLACEHOLDERS: Readonly<Record<string, string>> = {
  '<token from Validate Payout>':
    'a transfer token for this transferId: in the sandbox, `POST /__sandbox/transfer-tokens` with `{"transfer_id":"tr_1003","vpa":"success@upi"}`',
  '<card token>': 'a card token: in the sandbox, `5200000000000007` (MASTERCARD, pays)',
  '<cryptogram>': 'the token cryptogram: in the sandbox, any text',
  '<sdk token>': 'in a reply: the SDK token the provider issued',
};

export const QUERY_EXAMPLES: readonly Query[] = [
  { type: 'query.bene_id', queryId: 'q-1', data: { bankAccount: '026291800004242', ifsc: 'YESB0000262' } },
  {
    type: 'query.bene_history',
    queryId: 'q-2',
    // The provider refuses an endDate later than the day before today (IST).
    data: { beneId: 'BENE42', startDate: '2026-10-01', endDate: '2026-10-31', page: 1 },
  },
  {
    type: 'query.sdk_token',
    queryId: 'q-3',
    replyTo: 'payouts.query-replies',
    data: {
      appId: 'vkyc-app',
      product: 'VKYC',
      metadata: { vkycRequestId: 101 },
      authenticatedUser: { identifierType: 'userId', identifierValue: 42 },
    },
  },
  {
    type: 'beneficiary.create',
    queryId: 'q-4',
    accountId: 'default',
    data: {
      beneId: 'BENE43',
      name: 'Ravi Kumar',
      vpa: 'success@upi',
      email: 'ravi@example.com',
      phone: '9876543211',
      address1: '14 MG Road',
    },
  },
  { type: 'query.beneficiary', queryId: 'q-5', accountId: 'default', data: { beneId: 'BENE42' } },
  { type: 'beneficiary.delete', queryId: 'q-6', accountId: 'default', data: { beneId: 'BENE43' } },
];

export const REPLY_EXAMPLES: readonly QueryReply[] = [
  { queryId: 'q-1', type: 'query.bene_id', ok: true, data: { beneId: 'BENE42' } },
  {
    queryId: 'q-3',
    type: 'query.sdk_token',
    ok: true,
    data: { accessToken: '<sdk token>', expiresAt: '2026-11-21 21:06:34 IST' },
  },
  {
    queryId: 'q-2',
    type: 'query.bene_history',
    ok: false,
    error: { code: 'failed', message: 'Invalid date range', providerCode: '422' },
  },
  {
    queryId: 'q-4',
    type: 'beneficiary.create',
    ok: true,
    generation: 'v2',
    data: {
      result: 'created',
      beneficiary: {
        beneId: 'BENE43',
        name: 'Ravi Kumar',
        vpa: 'su***@upi',
        email: 'r***@example.com',
        phone: '********11',
        status: 'VERIFIED',
        addedOn: '2026-11-21T10:15:30Z',
      },
    },
  },
  {
    queryId: 'q-4',
    type: 'beneficiary.create',
    ok: false,
    generation: 'v1',
    error: { code: 'conflict', message: 'Beneficiary BENE43 is registered with other details (vpa)' },
  },
  { queryId: 'q-6', type: 'beneficiary.delete', ok: true, generation: 'v1', data: { result: 'deleted' } },
];

export { EVENT_EXAMPLES } from './event-examples.js';
