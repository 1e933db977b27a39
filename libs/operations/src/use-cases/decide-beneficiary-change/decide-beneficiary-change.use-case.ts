import { inTransaction } from '#database';
import { decodeQueryData } from '#contracts';
import { type BeneficiaryProposalRow } from '../../beneficiary-proposal.repository.js';
import { OperationsError, OperationsErrorCode } from '../../operations.errors.js';
import { type Operator } from '../../operators.js';
import {
  beneficiaryViewOf,
  recordedBeneficiaryChange,
  type BeneficiaryView,
} from '../shared/beneficiaries.js';
import {
  beneficiaryProposalView,
  type BeneficiaryProposalPorts,
  type BeneficiaryProposalView,
} from '../shared/beneficiary-proposals.js';
import { type DecideProposalCommand } from '../shared/decide-proposal.command.js';
import { actorOf, allowSecondPerson } from '../shared/operator-actions.js';
import { notFound } from '../shared/refusals.js';

/**
 * The second person of a beneficiary change: another human than the proposer, an approver
 * signed in as themselves (never a token), approves or rejects it. In one transaction the
 * proposal is checked open and closed with the decider; only then, on an approval, is the
 * provider asked (through the same use case as the Kafka requests), and its answer kept with the
 * proposal: `approved` with the result (created, exists, deleted, absent), or `failed` with the
 * refusal's code (propose again once the cause is known). Both people are in the history.
 */
export class DecideBeneficiaryChange {
  constructor(private readonly d: BeneficiaryProposalPorts) {}

  approve(who: Operator, c: DecideProposalCommand): Promise<BeneficiaryProposalView> {
    return this.decide(who, c, 'approved');
  }

  reject(who: Operator, c: DecideProposalCommand): Promise<BeneficiaryProposalView> {
    return this.decide(who, c, 'rejected');
  }

  private async decide(
    who: Operator,
    { proposalId, note }: DecideProposalCommand,
    decision: 'approved' | 'rejected',
  ): Promise<BeneficiaryProposalView> {
    if (!/^[1-9]\d{0,17}$/.test(proposalId)) throw notFound(`no beneficiary proposal ${proposalId}`);
    const { operatorId, operatorName, via } = actorOf(who);
    const seen = await this.d.beneProposals.byId(this.d.pool, proposalId);
    if (!seen) throw notFound(`no beneficiary proposal ${proposalId}`);
    const on = { accountId: seen.accountId, beneId: seen.beneId, beneProposalId: seen.id };
    const action = decision === 'approved' ? 'bene_approve' : 'bene_reject';
    return recordedBeneficiaryChange(this.d, who, action, 'decide', on, async () => {
      const decided = await inTransaction(this.d.pool, async (tx) => {
        const p = await this.d.beneProposals.lock(tx, proposalId);
        if (!p) throw notFound(`no beneficiary proposal ${proposalId}`);
        if (p.state !== 'open')
          throw new OperationsError(
            OperationsErrorCode.ProposalDecided,
            `beneficiary proposal ${p.id} is already ${p.state}`,
          );
        allowSecondPerson(who, p.proposedBy.id, `beneficiary proposal ${p.id}`);
        return this.d.beneProposals.decide(
          tx,
          p.id,
          decision,
          { id: operatorId, name: operatorName, via },
          note,
        );
      });
      if (!decided) throw new OperationsError(OperationsErrorCode.ProposalDecided, 'decided meanwhile');
      if (decision === 'rejected') return { value: beneficiaryProposalView(decided), result: 'rejected' };
      return this.execute(decided);
    });
  }

  /** The approved change, asked of the provider; its answer kept with the proposal. */
  private async execute(
    p: BeneficiaryProposalRow,
  ): Promise<{ value: BeneficiaryProposalView; result: string }> {
    let answer: BeneficiaryView;
    try {
      answer = beneficiaryViewOf(p.accountId, await this.ask(p));
    } catch (e) {
      if (e instanceof OperationsError)
        await this.d.beneProposals.settle(this.d.pool, p.id, 'failed', e.code);
      throw e;
    }
    const settled = await this.d.beneProposals.settle(this.d.pool, p.id, 'approved', answer.result);
    return { value: beneficiaryProposalView(settled ?? p, answer), result: answer.result };
  }

  private ask(p: BeneficiaryProposalRow) {
    // Recorded as a change by the person who proposed it (the approval policy's "changed
    // recently" rule then keeps that person from approving payouts to it).
    const by = { source: 'ops', operatorId: p.proposedBy.id } as const;
    if (p.change === 'delete') return this.d.manage.remove(p.accountId, p.beneId, undefined, by);
    if (!p.details) throw new Error(`beneficiary proposal ${p.id} has no details to register`);
    // Decoded again by the contract's schema: what was sealed is what was checked, or nothing is sent.
    const data = decodeQueryData('beneficiary.create', JSON.parse(this.d.cipher.open(p.details)));
    if (!data.ok) throw new Error(`beneficiary proposal ${p.id}: its sealed details no longer decode`);
    return this.d.manage.create(p.accountId, data.value, undefined, by);
  }
}
