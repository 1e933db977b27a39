import { proposalView, type ProposalView } from '../../operations.views.js';
import { encodeCursor } from '../../search.js';
import { type OperationsPorts } from '../operations.ports.js';
import { type ListProposalsCommand } from './list-proposals.command.js';

/** Settlement proposals, newest first, paged. */
export class ListProposals {
  constructor(private readonly d: Pick<OperationsPorts, 'pool' | 'proposals'>) {}

  async execute({ state, limit, afterId }: ListProposalsCommand): Promise<{
    items: ProposalView[];
    nextCursor: string | null;
  }> {
    const rows = await this.d.proposals.list(this.d.pool, state, afterId, limit + 1);
    const items = rows.slice(0, limit);
    const last = items[items.length - 1];
    return {
      items: items.map(proposalView),
      nextCursor: rows.length > limit && last ? encodeCursor({ id: last.id }) : null,
    };
  }
}
