import { maskBeneficiary } from '#pipeline';
import { type Operator } from '../../operators.js';
import { checkIds } from '../shared/beneficiaries.js';
import {
  type BeneficiaryProposalPorts,
  type BeneficiaryProposalView,
  proposeBeneficiaryChange,
} from '../shared/beneficiary-proposals.js';
import { invalid } from '../shared/refusals.js';
import { type CreateBeneficiaryCommand } from './create-beneficiary.command.js';

/**
 * A person asks to register a beneficiary: an instrument money will be sent to, so a second
 * person approves it (ApproveBeneficiaryChange) before the provider is asked (issue 30). The
 * details are checked now (the contract's schema, a known account), sealed with the ledger's key
 * until then, and shown to the approver masked. Recorded, done or refused.
 */
export class CreateBeneficiary {
  constructor(private readonly d: BeneficiaryProposalPorts) {}

  execute(who: Operator, c: CreateBeneficiaryCommand): Promise<BeneficiaryProposalView> {
    return proposeBeneficiaryChange(this.d, who, 'bene_create', c, () => {
      if (!c.details.ok) throw invalid(`beneficiary details: ${c.details.detail}`);
      const details = c.details.value;
      checkIds(this.d.accountIds, c.accountId, details.beneId);
      return {
        accountId: c.accountId,
        beneId: details.beneId,
        change: 'create',
        details: this.d.cipher.seal(JSON.stringify(details)),
        summary: { ...maskBeneficiary(details) },
      };
    });
  }
}
