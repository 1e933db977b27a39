import { type EndpointAdapter } from '../core/endpoint-adapter.js';
import {
  ALNUM_PATTERN,
  check,
  firstRefusal,
  IFSC_PATTERN,
  matches,
  required,
  type FieldRule,
} from '../core/field-rules.js';
import { classifyLegacy } from '../core/legacy-classify.js';
import { writeJson } from '../core/decimal.js';
import { addBeneficiaryOutcomes } from './add-beneficiary.outcomes.js';
import { personalValues, type BeneficiaryDetails } from './beneficiary.js';

export interface BeneficiaryAdded {
  readonly added: true;
}

const INVALID = 'Invalid beneficiary details';
const BENE_ID = /^[A-Za-z0-9]{1,60}$/;
/** No control characters (a line break would end up in the provider's records). */
const TEXT = /^[^\p{Cc}]*$/u;

/** v1 needs name, email, phone and address; an instrument is an account with IFSC, or a VPA. */
const rules: readonly FieldRule<BeneficiaryDetails>[] = [
  required((r) => r.beneId, '422', INVALID),
  matches((r) => r.beneId, BENE_ID, 60, '422', 'Invalid beneficiary id'),
  required((r) => r.name, '422', INVALID),
  matches((r) => r.name, TEXT, 100, '422', INVALID),
  required((r) => r.email, '422', 'email is required on v1'),
  matches((r) => r.email, /^[^@\s]+@[^@\s]+$/, 100, '422', INVALID),
  required((r) => r.phone, '422', 'phone is required on v1'),
  matches((r) => r.phone, /^\d{8,12}$/, 12, '422', INVALID),
  required((r) => r.address1, '422', 'address1 is required on v1'),
  matches((r) => r.address1, TEXT, 100, '422', INVALID),
  check((r) => Boolean(r.bankAccount) === Boolean(r.ifsc), '422', 'bankAccount and ifsc come together'),
  matches((r) => r.bankAccount, ALNUM_PATTERN, 40, '422', INVALID),
  check((r) => !r.bankAccount || r.bankAccount.length >= 6, '422', INVALID),
  matches((r) => r.ifsc, IFSC_PATTERN, 11, '422', 'Invalid IFSC'),
  check((r) => Boolean(r.bankAccount) || Boolean(r.vpa), '422', 'bankAccount and ifsc, or vpa, required'),
  matches((r) => r.vpa, /^[^@\s]+@[^@\s]+$/, 100, '422', INVALID),
  matches((r) => r.city, TEXT, 100, '422', INVALID),
  matches((r) => r.state, TEXT, 100, '422', INVALID),
  matches((r) => r.pincode, /^\d{6}$/, 6, '422', INVALID),
];

/** POST /payout/v1/addBeneficiary */
export const addBeneficiaryAdapter: EndpointAdapter<BeneficiaryDetails, BeneficiaryAdded> = {
  name: 'addBeneficiary',
  method: 'POST',
  path: '/payout/v1/addBeneficiary',
  host: 'payout',
  auth: 'bearer',
  rateClass: 'default',
  validate: (r) => firstRefusal(r, rules),
  secrets: personalValues,
  build: (r) => {
    const body: Record<string, string> = {
      beneId: r.beneId,
      name: r.name,
      email: r.email ?? '',
      phone: r.phone ?? '',
      address1: r.address1 ?? '',
    };
    for (const k of ['bankAccount', 'ifsc', 'vpa', 'city', 'state', 'pincode'] as const) {
      const v = r[k];
      if (v) body[k] = v;
    }
    return { body: writeJson(body) };
  },
  classify: (answer) =>
    classifyLegacy(addBeneficiaryOutcomes, answer, () => ({ data: { added: true as const } })),
};
