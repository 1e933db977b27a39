import { type BeneficiaryProposalState } from '../../beneficiary-proposal.repository.js';
import { encodeCursor, type SearchQuery } from '../../search.js';
import { parseProposalPage } from '../list-proposals/list-proposals.command.js';
import {
  beneficiaryProposalView,
  type BeneficiaryProposalPorts,
  type BeneficiaryProposalView,
} from '../shared/beneficiary-proposals.js';

const STATES: readonly BeneficiaryProposalState[] = ['open', 'approved', 'rejected', 'failed'];

export interface ListBeneficiaryProposalsCommand {
  readonly state: BeneficiaryProposalState | null;
  readonly limit: number;
  readonly afterId: string | null;
}

/** `?state=` (open, approved, rejected, failed or all), `?limit=` (default 50), `?cursor=`. */
export function parseListBeneficiaryProposals(query: SearchQuery): ListBeneficiaryProposalsCommand {
  return parseProposalPage(query, STATES);
}

/** Beneficiary changes waiting for (or decided by) a second person, newest first, paged; masked. */
export class ListBeneficiaryProposals {
  constructor(private readonly d: Pick<BeneficiaryProposalPorts, 'pool' | 'beneProposals'>) {}

  async execute({ state, limit, afterId }: ListBeneficiaryProposalsCommand): Promise<{
    items: BeneficiaryProposalView[];
    nextCursor: string | null;
  }> {
    const rows = await this.d.beneProposals.list(this.d.pool, state, afterId, limit + 1);
    const items = rows.slice(0, limit);
    const last = items[items.length - 1];
    return {
      items: items.map((p) => beneficiaryProposalView(p)),
      nextCursor: rows.length > limit && last ? encodeCursor({ id: last.id }) : null,
    };
  }
}
