import { type EndpointAdapter } from '../core/endpoint-adapter.js';
import { firstRefusal, matches, required, type FieldRule } from '../core/field-rules.js';
import { classifyLegacy } from '../core/legacy-classify.js';
import { decodeV1Beneficiary, type ProviderBeneficiary } from './beneficiary.js';
import { getBeneficiaryOutcomes } from './get-beneficiary.outcomes.js';

export interface GetBeneficiaryRequest {
  readonly beneId: string;
}

const rules: readonly FieldRule<GetBeneficiaryRequest>[] = [
  required((r) => r.beneId, '422', 'Invalid beneficiary id'),
  matches((r) => r.beneId, /^[A-Za-z0-9]+$/, 60, '422', 'Invalid beneficiary id'),
];

/** GET /payout/v1/getBeneficiary/:beneId */
export const getBeneficiaryAdapter: EndpointAdapter<GetBeneficiaryRequest, ProviderBeneficiary> = {
  name: 'getBeneficiary',
  method: 'GET',
  path: '/payout/v1/getBeneficiary/:beneId',
  host: 'payout',
  auth: 'bearer',
  rateClass: 'default',
  validate: (r) => firstRefusal(r, rules),
  build: (r) => ({ pathParams: { beneId: r.beneId } }),
  classify: (answer) => classifyLegacy(getBeneficiaryOutcomes, answer, decodeV1Beneficiary),
};
