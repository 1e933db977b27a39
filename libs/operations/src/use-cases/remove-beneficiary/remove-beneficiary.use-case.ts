import { type Operator } from '../../operators.js';
import { type OperationsPorts } from '../operations.ports.js';
import {
  beneficiaryViewOf,
  checkIds,
  recordedBeneficiaryChange,
  type BeneficiaryView,
} from '../shared/beneficiaries.js';

/** Removes a beneficiary; one already gone answers `absent`. Recorded, done or refused. */
export class RemoveBeneficiary {
  constructor(private readonly d: Pick<OperationsPorts, 'pool' | 'actions' | 'manage' | 'accountIds'>) {}

  execute(
    who: Operator,
    { accountId, beneId }: { accountId: string; beneId: string },
  ): Promise<BeneficiaryView> {
    return recordedBeneficiaryChange(this.d, who, 'bene_delete', accountId, beneId, async () => {
      checkIds(this.d.accountIds, accountId, beneId);
      return beneficiaryViewOf(
        accountId,
        await this.d.manage.remove(accountId, beneId, undefined, { source: 'ops', operatorId: who.id }),
      );
    });
  }
}
