import {
  addBeneficiaryOutcomes,
  createBeneficiaryV2Outcomes,
  deleteBeneficiaryV2Outcomes,
  getBeneficiaryOutcomes,
  getBeneficiaryV2Outcomes,
  removeBeneficiaryOutcomes,
  type BeneficiaryDetails,
} from '#provider-client/testing';
import { type LegacyCase, type V2Case } from './case-types.js';

export const v1Bene: BeneficiaryDetails = {
  beneId: 'bene42',
  name: 'Asha Rao',
  email: 'asha@example.com',
  phone: '9876543210',
  address1: '12 MG Road',
  bankAccount: '026291800001191',
  ifsc: 'YESB0000262',
};

export const v2Bene: BeneficiaryDetails = { ...v1Bene, beneId: 'bene_42' };

export const v2BeneficiaryBody = (status = 'VERIFIED') => ({
  beneficiary_id: 'bene_42',
  beneficiary_name: 'Asha Rao',
  beneficiary_instrument_details: { bank_account_number: '026291800001191', bank_ifsc: 'YESB0000262' },
  beneficiary_contact_details: { beneficiary_email: 'asha@example.com', beneficiary_phone: '9876543210' },
  beneficiary_status: status,
  added_on: '2024-01-01T10:00:00Z',
});

export const BENEFICIARY_LEGACY_CASES: readonly LegacyCase[] = [
  {
    kind: 'legacy',
    name: 'addBeneficiary',
    path: '/payout/v1/addBeneficiary',
    bearer: true,
    table: addBeneficiaryOutcomes,
    call: (c) => c.call('addBeneficiary', v1Bene),
    invalid: [
      ['missing beneId', (c) => c.call('addBeneficiary', { ...v1Bene, beneId: '' })],
      ['beneId with underscore', (c) => c.call('addBeneficiary', { ...v1Bene, beneId: 'bene_1' })],
      ['missing email (v1 needs it)', (c) => c.call('addBeneficiary', { ...v1Bene, email: undefined })],
      ['phone with letters', (c) => c.call('addBeneficiary', { ...v1Bene, phone: '98765x3210' })],
      ['account without IFSC', (c) => c.call('addBeneficiary', { ...v1Bene, ifsc: undefined })],
      ['bad IFSC', (c) => c.call('addBeneficiary', { ...v1Bene, ifsc: 'YESB1000262' })],
      [
        'no instrument',
        (c) =>
          c.call('addBeneficiary', { ...v1Bene, bankAccount: undefined, ifsc: undefined, vpa: undefined }),
      ],
    ],
  },
  {
    kind: 'legacy',
    name: 'getBeneficiary',
    path: '/payout/v1/getBeneficiary/bene42',
    bearer: true,
    table: getBeneficiaryOutcomes,
    data: { beneId: 'bene42', name: 'Asha Rao', bankAccount: '026291800001191', ifsc: 'YESB0000262' },
    call: (c) => c.call('getBeneficiary', { beneId: 'bene42' }),
    invalid: [
      ['missing beneId', (c) => c.call('getBeneficiary', { beneId: '' })],
      ['beneId with a slash', (c) => c.call('getBeneficiary', { beneId: 'a/b' })],
    ],
  },
  {
    kind: 'legacy',
    name: 'removeBeneficiary',
    path: '/payout/v1/removeBeneficiary',
    bearer: true,
    table: removeBeneficiaryOutcomes,
    call: (c) => c.call('removeBeneficiary', { beneId: 'bene42' }),
    invalid: [['missing beneId', (c) => c.call('removeBeneficiary', { beneId: '' })]],
  },
];

export const BENEFICIARY_V2_CASES: readonly V2Case[] = [
  {
    kind: 'v2',
    name: 'createBeneficiaryV2',
    path: '/payout/beneficiary',
    table: createBeneficiaryV2Outcomes,
    okBody: v2BeneficiaryBody(),
    call: (c) => c.call('createBeneficiaryV2', v2Bene),
    invalid: [
      ['missing beneficiary_id', (c) => c.call('createBeneficiaryV2', { ...v2Bene, beneId: '' })],
      ['beneficiary_id over 50', (c) => c.call('createBeneficiaryV2', { ...v2Bene, beneId: 'b'.repeat(51) })],
      ['name with digits', (c) => c.call('createBeneficiaryV2', { ...v2Bene, name: 'Asha 2' })],
      ['account of 8', (c) => c.call('createBeneficiaryV2', { ...v2Bene, bankAccount: '12345678' })],
      ['account of 19', (c) => c.call('createBeneficiaryV2', { ...v2Bene, bankAccount: '1'.repeat(19) })],
      ['IFSC without account', (c) => c.call('createBeneficiaryV2', { ...v2Bene, bankAccount: undefined })],
      ['bad VPA', (c) => c.call('createBeneficiaryV2', { ...v2Bene, vpa: 'a@b-c' })],
      ['postal code of 7', (c) => c.call('createBeneficiaryV2', { ...v2Bene, pincode: '1234567' })],
    ],
  },
  {
    kind: 'v2',
    name: 'getBeneficiaryV2',
    path: '/payout/beneficiary',
    table: getBeneficiaryV2Outcomes,
    okBody: v2BeneficiaryBody(),
    call: (c) => c.call('getBeneficiaryV2', { beneId: 'bene_42' }),
    invalid: [
      ['neither id nor account', (c) => c.call('getBeneficiaryV2', { beneId: '' })],
      [
        'account without IFSC',
        (c) => c.call('getBeneficiaryV2', { bankAccount: '026291800001191', ifsc: '' }),
      ],
      ['bad IFSC', (c) => c.call('getBeneficiaryV2', { bankAccount: '026291800001191', ifsc: 'YESB' })],
    ],
  },
  {
    kind: 'v2',
    name: 'deleteBeneficiaryV2',
    path: '/payout/beneficiary',
    table: deleteBeneficiaryV2Outcomes,
    okBody: v2BeneficiaryBody('DELETED'),
    call: (c) => c.call('deleteBeneficiaryV2', { beneId: 'bene_42' }),
    invalid: [
      ['missing beneficiary_id', (c) => c.call('deleteBeneficiaryV2', { beneId: '' })],
      ['beneficiary_id with a space', (c) => c.call('deleteBeneficiaryV2', { beneId: 'a b' })],
    ],
  },
];
