import {
  actionView,
  historyView,
  payoutView,
  proposalView,
  type ActionView,
  type HistoryView,
  type PayoutView,
  type ProposalView,
} from '../../operations.views.js';
import { type OperationsPorts } from '../operations.ports.js';
import { findPayout, type PayoutRef } from '../shared/refs.js';

export interface Timeline {
  payout: PayoutView;
  history: HistoryView[];
  actions: ActionView[];
  proposals: ProposalView[];
}

/** A payout's whole story: its current state, every state change, every operator action. */
export class PayoutTimeline {
  constructor(
    private readonly d: Pick<OperationsPorts, 'pool' | 'payouts' | 'history' | 'actions' | 'proposals'>,
  ) {}

  async execute(ref: PayoutRef): Promise<Timeline> {
    const row = await findPayout(this.d, ref);
    const [history, actions, proposals] = await Promise.all([
      this.d.history.ofSubject(this.d.pool, 'payout', row.id, row.createdAt),
      this.d.actions.ofPayout(this.d.pool, row.id),
      this.d.proposals.ofPayout(this.d.pool, row.id),
    ]);
    return {
      payout: payoutView(row),
      history: history.map(historyView),
      actions: actions.map(actionView),
      proposals: proposals.map(proposalView),
    };
  }
}
