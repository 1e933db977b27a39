import { type Operator } from '../../operators.js';
import { checkIds } from '../shared/beneficiaries.js';
import {
  type BeneficiaryProposalPorts,
  type BeneficiaryProposalView,
  proposeBeneficiaryChange,
} from '../shared/beneficiary-proposals.js';

/**
 * A person asks to remove a beneficiary (a step of redirecting its money: remove, then register
 * again with other details): a second person approves it before the provider is asked.
 */
export class RemoveBeneficiary {
  constructor(private readonly d: BeneficiaryProposalPorts) {}

  execute(
    who: Operator,
    { accountId, beneId }: { accountId: string; beneId: string },
  ): Promise<BeneficiaryProposalView> {
    return proposeBeneficiaryChange(this.d, who, 'bene_delete', { accountId, beneId }, () => {
      checkIds(this.d.accountIds, accountId, beneId);
      return { accountId, beneId, change: 'delete', details: null, summary: null };
    });
  }
}
