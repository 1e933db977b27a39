import { type EndpointAdapter } from '../core/endpoint-adapter.js';
import { check, firstRefusal, type FieldRule } from '../core/field-rules.js';
import { classifyV2 } from '../core/v2-classify.js';
import { decodeV2Beneficiary, type ProviderBeneficiary } from './beneficiary.js';
import { beneficiaryAccountRules, beneficiaryIdRules } from './beneficiary-v2.rules.js';
import { getBeneficiaryV2Outcomes } from './get-beneficiary-v2.outcomes.js';

/** By id, or by account and IFSC (which replaces v1 getBeneId): exactly one of the two. */
export type GetBeneficiaryV2Request =
  { readonly beneId: string } | { readonly bankAccount: string; readonly ifsc: string };

const byId = (r: GetBeneficiaryV2Request): string | undefined => ('beneId' in r ? r.beneId : undefined);
const accountOf = (r: GetBeneficiaryV2Request): string | undefined =>
  'bankAccount' in r ? r.bankAccount : undefined;
const ifscOf = (r: GetBeneficiaryV2Request): string | undefined => ('ifsc' in r ? r.ifsc : undefined);

const getRules: readonly FieldRule<GetBeneficiaryV2Request>[] = [
  check(
    (r) => Boolean(byId(r)) || Boolean(accountOf(r)) || Boolean(ifscOf(r)),
    'beneficiary_identifiers_missing',
    'beneficiary_id or bank_account_number and bank_ifsc are required',
  ),
  ...beneficiaryIdRules(byId),
  ...beneficiaryAccountRules(accountOf, ifscOf),
];

export const getBeneficiaryV2Adapter: EndpointAdapter<GetBeneficiaryV2Request, ProviderBeneficiary> = {
  name: 'getBeneficiaryV2',
  method: 'GET',
  path: '/payout/beneficiary',
  host: 'base',
  auth: 'client-headers',
  rateClass: 'default',
  validate: (r) => firstRefusal(r, getRules),
  secrets: (r) => [accountOf(r)],
  build: (r): { query: Record<string, string> } =>
    'beneId' in r
      ? { query: { beneficiary_id: r.beneId } }
      : { query: { bank_account_number: r.bankAccount, bank_ifsc: r.ifsc } },
  classify: (answer) => classifyV2(getBeneficiaryV2Outcomes, answer, decodeV2Beneficiary),
};
