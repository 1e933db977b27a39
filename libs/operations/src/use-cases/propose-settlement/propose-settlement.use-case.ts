import { inTransaction } from '#database';
import { OperationsError, OperationsErrorCode } from '../../operations.errors.js';
import { proposalView, type ProposalView } from '../../operations.views.js';
import { type Operator } from '../../operators.js';
import { type OperationsPorts } from '../operations.ports.js';
import { actorOf, allow, recorded } from '../shared/operator-actions.js';
import { findPayout } from '../shared/refs.js';
import { type ProposeSettlementCommand } from './propose-settlement.command.js';

/**
 * Four eyes, first pair: propose settling a REQUIRES_ATTENTION payout as SUCCESS (with the
 * UTR) or FAILED, with a note, on the version the operator saw. Nothing moves yet.
 */
export class ProposeSettlement {
  constructor(
    private readonly d: Pick<OperationsPorts, 'pool' | 'payouts' | 'proposals' | 'actions' | 'logger'>,
  ) {}

  async execute(who: Operator, p: ProposeSettlementCommand): Promise<ProposalView> {
    allow(who, 'propose');
    const { accountId, transferId } = p.payout;
    const row = await findPayout(this.d, p.payout);
    return recorded(this.d, who, 'propose', { payoutId: row.id, accountId, transferId }, async () => {
      if (row.status !== 'REQUIRES_ATTENTION')
        throw new OperationsError(
          OperationsErrorCode.NotRequiringAttention,
          `payout ${transferId} is ${row.status}: only a REQUIRES_ATTENTION payout is settled by a person`,
        );
      if (row.version !== p.version)
        throw new OperationsError(
          OperationsErrorCode.ConcurrentChange,
          `payout ${transferId} is at version ${row.version}, not ${p.version}: it moved on; look it up again`,
        );
      const proposal = await inTransaction(this.d.pool, async (c) => {
        await this.d.proposals.closeStale(c, row.id, row.version);
        return this.d.proposals.insert(c, {
          payoutId: row.id,
          accountId,
          transferId,
          fromVersion: row.version,
          outcome: p.outcome,
          utr: p.utr,
          note: p.note,
          proposedBy: who.id,
          proposedByName: who.name,
          proposedVia: actorOf(who).via,
        });
      });
      if (!proposal)
        throw new OperationsError(
          OperationsErrorCode.ProposalOpen,
          `payout ${transferId} already has an open proposal: approve or reject it first`,
        );
      this.d.logger.info(
        { transferId, proposalId: proposal.id, outcome: p.outcome, operator: who.name },
        'operator proposed a settlement',
      );
      return { value: proposalView(proposal), result: 'proposed', proposalId: proposal.id };
    });
  }
}
