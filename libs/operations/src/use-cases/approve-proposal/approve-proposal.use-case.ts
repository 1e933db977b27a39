import { type ProposalView } from '../../operations.views.js';
import { type Operator } from '../../operators.js';
import { type DecideProposalCommand } from '../shared/decide-proposal.command.js';
import { decideProposal, type DecidePorts } from '../shared/decide-proposal.js';

/**
 * Four eyes, second pair: a different approver approves, and only then the ledger moves the
 * payout (if it is still at the proposed version; otherwise the proposal closes as stale).
 */
export class ApproveProposal {
  constructor(private readonly d: DecidePorts) {}

  execute(who: Operator, command: DecideProposalCommand): Promise<ProposalView> {
    return decideProposal(this.d, who, command, 'approved');
  }
}
