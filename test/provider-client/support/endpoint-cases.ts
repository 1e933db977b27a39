import {
  createSdkTokenOutcomes,
  getTransferStatusV2Outcomes,
  processValidatedPayoutOutcomes,
} from '#provider-client';
import { v2Transfer, type LegacyCase, type V2Case } from './case-types.js';
import { pvp, sdk } from './request-fixtures.js';

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
