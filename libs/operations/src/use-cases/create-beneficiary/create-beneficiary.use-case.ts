import { type Operator } from '../../operators.js';
import { type OperationsPorts } from '../operations.ports.js';
import {
  beneficiaryViewOf,
  checkIds,
  recordedBeneficiaryChange,
  type BeneficiaryView,
} from '../shared/beneficiaries.js';
import { invalid } from '../shared/refusals.js';
import { type CreateBeneficiaryCommand } from './create-beneficiary.command.js';

/**
 * Registers a beneficiary through the same use case as the Kafka request (ManageBeneficiaries), so
 * both answer alike; the same details again answer `exists`. Recorded, done or refused.
 */
export class CreateBeneficiary {
  constructor(private readonly d: Pick<OperationsPorts, 'pool' | 'actions' | 'manage' | 'accountIds'>) {}

  execute(who: Operator, c: CreateBeneficiaryCommand): Promise<BeneficiaryView> {
    return recordedBeneficiaryChange(this.d, who, 'bene_create', c.accountId, c.beneId, async () => {
      if (!c.details.ok) throw invalid(`beneficiary details: ${c.details.detail}`);
      checkIds(this.d.accountIds, c.accountId, c.details.value.beneId);
      return beneficiaryViewOf(
        c.accountId,
        await this.d.manage.create(c.accountId, c.details.value, undefined, {
          source: 'ops',
          operatorId: who.id,
        }),
      );
    });
  }
}
