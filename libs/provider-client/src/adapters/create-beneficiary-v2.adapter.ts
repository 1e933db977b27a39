import { type EndpointAdapter } from '../core/endpoint-adapter.js';
import { check, firstRefusal, matches, required, type FieldRule } from '../core/field-rules.js';
import { classifyV2 } from '../core/v2-classify.js';
import { writeJson } from '../core/decimal.js';
import {
  decodeV2Beneficiary,
  personalValues,
  type BeneficiaryDetails,
  type ProviderBeneficiary,
} from './beneficiary.js';
import { beneficiaryAccountRules, beneficiaryIdRules } from './beneficiary-v2.rules.js';
import { createBeneficiaryV2Outcomes } from './create-beneficiary-v2.outcomes.js';

/** No control characters. */
const PLAIN_TEXT = /^[^\p{Cc}]*$/u;

const createRules: readonly FieldRule<BeneficiaryDetails>[] = [
  required((r) => r.beneId, 'beneficiary_id_missing', 'beneficiary_id is missing'),
  ...beneficiaryIdRules<BeneficiaryDetails>((r) => r.beneId),
  required((r) => r.name, 'beneficiary_name_invalid', 'beneficiary_name is required'),
  matches((r) => r.name, /^[A-Za-z ]+$/, 100, 'beneficiary_name_invalid', 'letters and spaces, at most 100'),
  ...beneficiaryAccountRules<BeneficiaryDetails>(
    (r) => r.bankAccount,
    (r) => r.ifsc,
  ),
  matches((r) => r.vpa, /^[A-Za-z0-9._-]+@[A-Za-z0-9._]+$/, 100, 'vpa_invalid', 'vpa is invalid'),
  check(
    (r) => Boolean(r.bankAccount) || Boolean(r.vpa),
    'beneficiary_instrument_details_missing',
    'bank_account_number and bank_ifsc, or vpa, are required',
  ),
  matches((r) => r.email, /^[^@\s]+@[^@\s]+$/, 200, 'beneficiary_contact_details_invalid', 'email'),
  matches((r) => r.phone, /^(\+91)?\d{8,12}$/, 15, 'beneficiary_contact_details_invalid', 'phone'),
  matches((r) => r.address1, PLAIN_TEXT, 150, 'beneficiary_contact_details_invalid', 'address'),
  matches((r) => r.city, PLAIN_TEXT, 50, 'beneficiary_contact_details_invalid', 'city'),
  matches((r) => r.state, PLAIN_TEXT, 50, 'beneficiary_contact_details_invalid', 'state'),
  matches((r) => r.pincode, /^\d{1,6}$/, 6, 'beneficiary_contact_details_invalid', 'postal code'),
];

/** POST /payout/beneficiary: 201 with the Beneficiary. */
export const createBeneficiaryV2Adapter: EndpointAdapter<BeneficiaryDetails, ProviderBeneficiary> = {
  name: 'createBeneficiaryV2',
  method: 'POST',
  path: '/payout/beneficiary',
  host: 'base',
  auth: 'client-headers',
  rateClass: 'default',
  validate: (r) => firstRefusal(r, createRules),
  secrets: personalValues,
  build: (r) => {
    const instrument: Record<string, string> = {};
    if (r.bankAccount) instrument['bank_account_number'] = r.bankAccount;
    if (r.ifsc) instrument['bank_ifsc'] = r.ifsc;
    if (r.vpa) instrument['vpa'] = r.vpa;
    const contact: Record<string, string> = {};
    const put = (k: string, v: string | undefined): void => {
      if (v) contact[k] = v;
    };
    put('beneficiary_email', r.email);
    put('beneficiary_phone', r.phone);
    put('beneficiary_address', r.address1);
    put('beneficiary_city', r.city);
    put('beneficiary_state', r.state);
    put('beneficiary_postal_code', r.pincode);
    return {
      body: writeJson({
        beneficiary_id: r.beneId,
        beneficiary_name: r.name,
        beneficiary_instrument_details: instrument,
        ...(Object.keys(contact).length > 0 ? { beneficiary_contact_details: contact } : {}),
      }),
    };
  },
  classify: (answer) => classifyV2(createBeneficiaryV2Outcomes, answer, decodeV2Beneficiary),
};
