import { type OperationsPorts } from '../operations.ports.js';
import { beneficiaryViewOf, checkIds, type BeneficiaryView } from '../shared/beneficiaries.js';

/** A beneficiary as the account's provider API generation shows it, masked (a read: not recorded). */
export class GetBeneficiary {
  constructor(private readonly d: Pick<OperationsPorts, 'manage' | 'accountIds'>) {}

  async execute({ accountId, beneId }: { accountId: string; beneId: string }): Promise<BeneficiaryView> {
    checkIds(this.d.accountIds, accountId, beneId);
    return beneficiaryViewOf(accountId, await this.d.manage.get(accountId, beneId));
  }
}
