import { type MaskedBeneficiary } from '#pipeline';
import {
  type BeneficiaryProposalRow,
  type NewBeneficiaryProposal,
} from '../../beneficiary-proposal.repository.js';
import { OperationsError, OperationsErrorCode } from '../../operations.errors.js';
import { type Operator } from '../../operators.js';
import { type OperationsPorts } from '../operations.ports.js';
import { type BeneficiaryView, recordedBeneficiaryChange } from './beneficiaries.js';
import { actorOf } from './operator-actions.js';

/** A beneficiary change waiting for (or decided by) a second person, as the API shows it: masked. */
export interface BeneficiaryProposalView {
  readonly id: string;
  readonly accountId: string;
  readonly beneId: string;
  readonly change: 'create' | 'delete';
  /** A registration's details, masked; null for a removal. */
  readonly summary: Readonly<Record<string, string>> | null;
  readonly proposedBy: string;
  readonly proposedByName: string;
  readonly proposedVia: string;
  readonly proposedAt: string;
  readonly state: string;
  readonly decidedBy: string | null;
  readonly decidedByName: string | null;
  readonly decidedVia: string | null;
  readonly decidedAt: string | null;
  readonly decisionNote: string | null;
  /** The provider's answer once approved (created, exists, deleted, absent) or a refusal's code. */
  readonly result: string | null;
  readonly generation?: 'v1' | 'v2';
  readonly beneficiary?: MaskedBeneficiary;
}

export function beneficiaryProposalView(
  p: BeneficiaryProposalRow,
  answer?: BeneficiaryView,
): BeneficiaryProposalView {
  return {
    id: p.id,
    accountId: p.accountId,
    beneId: p.beneId,
    change: p.change,
    summary: p.summary,
    proposedBy: p.proposedBy.id,
    proposedByName: p.proposedBy.name,
    proposedVia: p.proposedBy.via,
    proposedAt: p.proposedAt.toISOString(),
    state: p.state,
    decidedBy: p.decidedBy?.id ?? null,
    decidedByName: p.decidedBy?.name ?? null,
    decidedVia: p.decidedBy?.via ?? null,
    decidedAt: p.decidedAt?.toISOString() ?? null,
    decisionNote: p.decisionNote,
    result: p.result,
    ...(answer ? { generation: answer.generation } : {}),
    ...(answer?.beneficiary ? { beneficiary: answer.beneficiary } : {}),
  };
}

export type BeneficiaryProposalPorts = Pick<
  OperationsPorts,
  'pool' | 'actions' | 'manage' | 'accountIds' | 'beneProposals' | 'cipher'
>;

/**
 * The first person of a beneficiary change: the change is kept as a proposal, nothing is asked
 * of the provider. Recorded (as bene_create / bene_delete, result `proposed`), done or refused.
 */
export function proposeBeneficiaryChange(
  d: BeneficiaryProposalPorts,
  who: Operator,
  action: 'bene_create' | 'bene_delete',
  on: { accountId: string; beneId: string | null },
  build: () => Omit<NewBeneficiaryProposal, 'proposedBy'>,
): Promise<BeneficiaryProposalView> {
  return recordedBeneficiaryChange(d, who, action, 'beneficiary', on, async () => {
    const p = build();
    const { operatorId, operatorName, via } = actorOf(who);
    const made = await d.beneProposals.insert(d.pool, {
      ...p,
      proposedBy: { id: operatorId, name: operatorName, via },
    });
    if (!made)
      throw new OperationsError(
        OperationsErrorCode.ProposalOpen,
        `beneficiary ${p.beneId} of ${p.accountId} already has an open change: approve or reject it first`,
      );
    return { value: beneficiaryProposalView(made), result: 'proposed', beneProposalId: made.id };
  });
}
