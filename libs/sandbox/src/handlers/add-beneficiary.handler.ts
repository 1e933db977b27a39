import { ADD_BENEFICIARY as R } from '../tables/add-beneficiary.table.js';
import { fail } from '../tables/row.js';
import { IFSC_RE } from '../core/test-data.js';
import { decodeObject, field, type LegacyEndpoint } from './endpoint.js';
import { BANK_ACCOUNT_RE } from './transfer-flow.js';
import { BENE_ID_RE } from './request-transfer.handler.js';

const FIELDS = [
  'beneId',
  'name',
  'email',
  'phone',
  'address1',
  'bankAccount',
  'ifsc',
  'vpa',
  'city',
  'state',
  'pincode',
];
const REQUIRED = ['beneId', 'name', 'email', 'phone', 'address1'];

/** POST /payout/v1/addBeneficiary (fields as the official SDK requires them). */
export const addBeneficiary: LegacyEndpoint = {
  id: 'addBeneficiary',
  fields: FIELDS,
  method: 'POST',
  paths: ['/payout/v1/addBeneficiary'],
  group: 'other',
  summary: 'Add beneficiary',
  table: R,
  auth: 'bearer',
  row520: { subCode: '520', status: 'ERROR', message: 'Unknown error occurred, please retry later' },
  handle({ world, body }) {
    const o = decodeObject(body, FIELDS);
    const v: Record<string, string> = {};
    for (const k of FIELDS) {
      const x = field(o, k);
      if (x === undefined || x.length > 100) fail(R.invalid);
      v[k] = x;
    }
    if (REQUIRED.some((k) => !v[k])) fail(R.invalid);
    const get = (k: string): string => v[k] ?? '';
    if (!BENE_ID_RE.test(get('beneId')) || !/^[^@\s]+@[^@\s]+$/.test(get('email'))) fail(R.invalid);
    if (!/^\d{8,12}$/.test(get('phone'))) fail(R.invalid);
    const hasBank = get('bankAccount') !== '' || get('ifsc') !== '';
    if (hasBank && (!BANK_ACCOUNT_RE.test(get('bankAccount')) || !IFSC_RE.test(get('ifsc')))) fail(R.invalid);
    if (!hasBank && get('vpa') === '') fail(R.invalid);
    const account = world.account;
    if (account.beneficiaries.has(get('beneId'))) fail(R.exists);
    account.beneficiaries.set(get('beneId'), {
      beneId: get('beneId'),
      name: get('name'),
      email: get('email'),
      phone: get('phone'),
      address1: get('address1'),
      bankAccount: get('bankAccount'),
      ifsc: get('ifsc'),
      vpa: get('vpa'),
      city: get('city'),
      state: get('state'),
      pincode: get('pincode'),
      addedAt: world.clock.now(),
    });
    return { row: R.added };
  },
};
