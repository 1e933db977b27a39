import { type EndpointAdapter } from '../core/endpoint-adapter.js';
import { writeJson } from '../core/decimal.js';
import { firstRefusal, matches, required, type FieldRule } from '../core/field-rules.js';
import { classifyLegacy } from '../core/legacy-classify.js';
import { type GetBeneficiaryRequest } from './get-beneficiary.adapter.js';
import { removeBeneficiaryOutcomes } from './remove-beneficiary.outcomes.js';

export interface BeneficiaryRemoved {
  readonly removed: true;
}

const rules: readonly FieldRule<GetBeneficiaryRequest>[] = [
  required((r) => r.beneId, '422', 'Invalid beneficiary id'),
  matches((r) => r.beneId, /^[A-Za-z0-9]+$/, 60, '422', 'Invalid beneficiary id'),
];

/** POST /payout/v1/removeBeneficiary */
export const removeBeneficiaryAdapter: EndpointAdapter<GetBeneficiaryRequest, BeneficiaryRemoved> = {
  name: 'removeBeneficiary',
  method: 'POST',
  path: '/payout/v1/removeBeneficiary',
  host: 'payout',
  auth: 'bearer',
  rateClass: 'default',
  validate: (r) => firstRefusal(r, rules),
  build: (r) => ({ body: writeJson({ beneId: r.beneId }) }),
  classify: (answer) =>
    classifyLegacy(removeBeneficiaryOutcomes, answer, () => ({ data: { removed: true as const } })),
};
