import { SOURCE_ACCOUNT, VIRTUAL_ACCOUNT_IFSC } from '../core/test-data.js';
import { V2_CREATE_BENEFICIARY as R } from '../tables/create-beneficiary-v2.table.js';
import { failV2, V2_COMMON } from '../tables/v2-common.table.js';
import { type Obj } from './endpoint.js';
import { beneficiaryView, checkAccount, checkBeneId } from './v2-beneficiary.js';
import { decodeV2Object, type V2Endpoint } from './v2-endpoint.js';
import { V2_CONTACT_LIMITS, V2_NAME_RE, V2_VPA_RE } from './v2-transfer-flow.js';

const FIELDS = [
  'beneficiary_id',
  'beneficiary_name',
  'beneficiary_instrument_details',
  'beneficiary_contact_details',
];
const INSTRUMENT = ['bank_account_number', 'bank_ifsc', 'vpa'];

function part(v: unknown, keys: readonly string[], row: typeof R.contactInvalid): Record<string, string> {
  if (v === undefined || v === null) return {};
  if (typeof v !== 'object' || Array.isArray(v)) failV2(row);
  const out: Record<string, string> = {};
  for (const [k, x] of Object.entries(v as Obj)) {
    if (!keys.includes(k)) failV2(V2_COMMON.unknownField);
    if (x === null || x === undefined) continue;
    if (typeof x !== 'string') failV2(row);
    out[k] = x;
  }
  return out;
}

function contactOf(v: unknown): Record<string, string> {
  const c = part(v, Object.keys(V2_CONTACT_LIMITS), R.contactInvalid);
  for (const [k, x] of Object.entries(c))
    if (x.length > (V2_CONTACT_LIMITS[k] ?? 0)) failV2(R.contactInvalid);
  const phone = (c.beneficiary_phone ?? '').replace(/^\+91/, '');
  if (phone !== '' && !/^\d{8,12}$/.test(phone)) failV2(R.contactInvalid);
  if (c.beneficiary_postal_code && !/^\d{1,6}$/.test(c.beneficiary_postal_code)) failV2(R.contactInvalid);
  if (c.beneficiary_email && !/^[^@\s]+@[^@\s]+$/.test(c.beneficiary_email)) failV2(R.contactInvalid);
  return { ...c, beneficiary_phone: phone };
}

/** POST /payout/beneficiary: Create Beneficiary V2 (201 with the Beneficiary object). */
export const createBeneficiaryV2: V2Endpoint = {
  id: 'createBeneficiaryV2',
  fields: FIELDS,
  method: 'POST',
  paths: ['/payout/beneficiary'],
  group: 'other',
  summary: 'Create Beneficiary V2',
  table: R,
  successStatus: 201,
  handle({ world, body }) {
    const o = decodeV2Object(body, FIELDS);
    const id = o.beneficiary_id;
    if (id === undefined || id === null || id === '') failV2(R.beneIdMissing);
    if (typeof id !== 'string') failV2(R.beneIdInvalid);
    checkBeneId(id, R);
    const name = o.beneficiary_name;
    if (typeof name !== 'string' || !V2_NAME_RE.test(name)) failV2(R.nameInvalid);
    const d = part(o.beneficiary_instrument_details, INSTRUMENT, R.accountInvalid);
    const account = d.bank_account_number ?? '';
    const ifsc = d.bank_ifsc ?? '';
    const vpa = d.vpa ?? '';
    checkAccount(account, ifsc, R);
    if (vpa !== '' && !V2_VPA_RE.test(vpa)) failV2(R.vpaInvalid);
    if (account === '' && vpa === '') failV2(R.instrumentMissing);
    const contact = contactOf(o.beneficiary_contact_details);
    const store = world.account.beneficiaries;
    if (store.has(id)) failV2(R.beneIdExists);
    if (account !== '') {
      for (const b of store.values()) if (b.bankAccount === account && b.ifsc === ifsc) failV2(R.beneExists);
      if (account === SOURCE_ACCOUNT.bankAccount && ifsc === SOURCE_ACCOUNT.ifsc) failV2(R.sameAsSource);
      if (ifsc === VIRTUAL_ACCOUNT_IFSC) failV2(R.vbaNotAllowed);
    }
    const bene = {
      beneId: id,
      name,
      email: contact.beneficiary_email ?? '',
      phone: contact.beneficiary_phone ?? '',
      address1: contact.beneficiary_address ?? '',
      bankAccount: account,
      ifsc,
      vpa,
      city: contact.beneficiary_city ?? '',
      state: contact.beneficiary_state ?? '',
      pincode: contact.beneficiary_postal_code ?? '',
      ...(contact.beneficiary_country_code ? { countryCode: contact.beneficiary_country_code } : {}),
      addedAt: world.clock.now(),
    };
    store.set(id, bene);
    return beneficiaryView(bene);
  },
};
