import { type EndpointAdapter } from '../core/endpoint-adapter.js';
import { firstRefusal, required, type FieldRule } from '../core/field-rules.js';
import { classifyV2 } from '../core/v2-classify.js';
import { decodeV2Beneficiary, type ProviderBeneficiary } from './beneficiary.js';
import { beneficiaryIdRules } from './beneficiary-v2.rules.js';
import { deleteBeneficiaryV2Outcomes } from './delete-beneficiary-v2.outcomes.js';

export interface DeleteBeneficiaryV2Request {
  readonly beneId: string;
}

const deleteRules: readonly FieldRule<DeleteBeneficiaryV2Request>[] = [
  required((r) => r.beneId, 'beneficiary_id_missing', 'beneficiary_id is missing'),
  ...beneficiaryIdRules<DeleteBeneficiaryV2Request>((r) => r.beneId),
];

/** DELETE /payout/beneficiary?beneficiary_id=: 200 with the Beneficiary, status DELETED. */
export const deleteBeneficiaryV2Adapter: EndpointAdapter<DeleteBeneficiaryV2Request, ProviderBeneficiary> = {
  name: 'deleteBeneficiaryV2',
  method: 'DELETE',
  path: '/payout/beneficiary',
  host: 'base',
  auth: 'client-headers',
  rateClass: 'default',
  validate: (r) => firstRefusal(r, deleteRules),
  build: (r) => ({ query: { beneficiary_id: r.beneId } }),
  classify: (answer) => classifyV2(deleteBeneficiaryV2Outcomes, answer, decodeV2Beneficiary),
};
