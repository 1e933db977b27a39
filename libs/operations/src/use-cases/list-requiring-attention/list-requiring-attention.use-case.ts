import {
  batchView,
  contradictionView,
  payoutView,
  type BatchView,
  type ContradictionView,
  type PayoutView,
} from '../../operations.views.js';
import { type OperationsPorts } from '../operations.ports.js';
import { type ListRequiringAttentionCommand } from './list-requiring-attention.command.js';

/**
 * What needs a person: REQUIRES_ATTENTION payouts and batches, and the contradictions of
 * published terminal states no one has acknowledged yet (ADR 0018), oldest first.
 */
export class ListRequiringAttention {
  constructor(private readonly d: Pick<OperationsPorts, 'pool' | 'payouts' | 'batches' | 'contradictions'>) {}

  async execute({ limit }: ListRequiringAttentionCommand): Promise<{
    payouts: PayoutView[];
    batches: BatchView[];
    contradictions: ContradictionView[];
  }> {
    const [payouts, batches, contradictions] = await Promise.all([
      this.d.payouts.requiringAttention(this.d.pool, limit),
      this.d.batches.requiringAttention(this.d.pool, limit),
      this.d.contradictions?.open(this.d.pool, limit) ?? [],
    ]);
    return {
      payouts: payouts.map(payoutView),
      batches: batches.map((b) => batchView(b)),
      contradictions: contradictions.map(contradictionView),
    };
  }
}
