import {
  batchTransferV2Outcomes,
  getBatchTransferStatusV2Outcomes,
  transferV2Outcomes,
  createSdkTokenOutcomes,
  getTransferStatusV2Outcomes,
  processValidatedPayoutOutcomes,
} from '#provider-client/testing';
import { v2Transfer, type LegacyCase, type V2Case } from './case-types.js';
import { btv2, pvp, sdk, tv2, tv2Inline } from './request-fixtures.js';

import { BENEFICIARY_LEGACY_CASES, BENEFICIARY_V2_CASES } from './beneficiary-cases.js';
import { LEGACY_CASES as TRANSFER_LEGACY_CASES } from './legacy-cases.js';

export * from './case-types.js';

export const LEGACY_CASES: readonly LegacyCase[] = [...TRANSFER_LEGACY_CASES, ...BENEFICIARY_LEGACY_CASES];

export const V2_CASES: readonly V2Case[] = [
  ...BENEFICIARY_V2_CASES,
  {
    kind: 'v2',
    name: 'processValidatedPayout',
    path: '/payout/transfers',
    table: processValidatedPayoutOutcomes,
    okBody: v2Transfer('RECEIVED'),
    call: (c) => c.call('processValidatedPayout', pvp),
    invalid: [
      ['missing token', (c) => c.call('processValidatedPayout', { ...pvp, transferToken: '' })],
      [
        'mode other than upi',
        (c) => c.call('processValidatedPayout', { ...pvp, transferMode: 'imps' as 'upi' }),
      ],
      [
        'amount with 3 decimals',
        (c) => c.call('processValidatedPayout', { ...pvp, transferAmount: '1.001' }),
      ],
    ],
  },
  {
    kind: 'v2',
    name: 'createSdkToken',
    path: '/verification/oauth/token',
    table: createSdkTokenOutcomes,
    okBody: { access_token: 'sdk-access-token-secret', expires_at: '2024-01-01 10:00:00 IST' },
    call: (c) => c.call('createSdkToken', sdk),
    invalid: [['missing app_id', (c) => c.call('createSdkToken', { ...sdk, appId: '' })]],
  },
  {
    kind: 'v2',
    name: 'getTransferStatusV2',
    path: '/payout/transfers',
    table: getTransferStatusV2Outcomes,
    okBody: v2Transfer('SUCCESS', 'COMPLETED'),
    call: (c) => c.call('getTransferStatusV2', { transferId: 'tr_v2_1' }),
    invalid: [['neither id', (c) => c.call('getTransferStatusV2', {})]],
  },
  {
    kind: 'v2',
    name: 'transferV2',
    path: '/payout/transfers',
    table: transferV2Outcomes,
    okBody: v2Transfer('RECEIVED'),
    call: (c) => c.call('transferV2', tv2),
    invalid: [
      ['amount below 1.00', (c) => c.call('transferV2', { ...tv2, amount: '0.99' })],
      ['amount with 3 decimals', (c) => c.call('transferV2', { ...tv2, amount: '10.001' })],
      ['transferId with hyphen', (c) => c.call('transferV2', { ...tv2, transferId: 'tr-1' })],
      ['bad mode', (c) => c.call('transferV2', { ...tv2, transferMode: 'cash' as 'upi' })],
      ['inline without a name', (c) => c.call('transferV2', { ...tv2Inline, beneficiary: { name: '' } })],
      [
        'bank mode without IFSC',
        (c) =>
          c.call('transferV2', {
            ...tv2Inline,
            beneficiary: { name: 'Asha', bankAccount: '026291800001191' },
          }),
      ],
      ['upi without a VPA', (c) => c.call('transferV2', { ...tv2Inline, transferMode: 'upi' })],
      [
        'bad VPA',
        (c) =>
          c.call('transferV2', { ...tv2Inline, transferMode: 'upi', beneficiary: { name: 'A', vpa: 'x y' } }),
      ],
      ['remarks with punctuation', (c) => c.call('transferV2', { ...tv2, remarks: 'hi!' })],
    ],
  },
  {
    kind: 'v2',
    name: 'batchTransferV2',
    path: '/payout/transfers/batch',
    table: batchTransferV2Outcomes,
    okBody: { batch_transfer_id: 'batch_v2_1', cf_batch_transfer_id: '555', status: 'RECEIVED' },
    call: (c) => c.call('batchTransferV2', btv2),
    invalid: [
      ['no entries', (c) => c.call('batchTransferV2', { ...btv2, transfers: [] })],
      ['batch id over 60', (c) => c.call('batchTransferV2', { ...btv2, batchTransferId: 'b'.repeat(61) })],
      [
        'an entry with a bad amount',
        (c) => c.call('batchTransferV2', { ...btv2, transfers: [{ ...tv2, amount: '1.005' }] }),
      ],
      [
        'a transfer_id twice',
        (c) =>
          c.call('batchTransferV2', {
            ...btv2,
            transfers: [tv2, { ...tv2Inline, transferId: tv2.transferId }],
          }),
      ],
    ],
  },
  {
    kind: 'v2',
    name: 'getBatchTransferStatusV2',
    path: '/payout/transfers/batch',
    table: getBatchTransferStatusV2Outcomes,
    okBody: {
      batch_transfer_id: 'batch_v2_1',
      cf_batch_transfer_id: '555',
      status: 'PENDING',
      transfers: [v2Transfer('SUCCESS', 'COMPLETED')],
    },
    call: (c) => c.call('getBatchTransferStatusV2', { batchTransferId: 'batch_v2_1' }),
    invalid: [['neither id', (c) => c.call('getBatchTransferStatusV2', {})]],
  },
];
