import { type ProposalView } from '../../operations.views.js';
import { type Operator } from '../../operators.js';
import { type DecideProposalCommand } from '../shared/decide-proposal.command.js';
import { decideProposal, type DecidePorts } from '../shared/decide-proposal.js';

/** Four eyes, second pair: a different approver rejects; nothing moves. */
export class RejectProposal {
  constructor(private readonly d: DecidePorts) {}

  execute(who: Operator, command: DecideProposalCommand): Promise<ProposalView> {
    return decideProposal(this.d, who, command, 'rejected');
  }
}
