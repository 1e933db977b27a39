import { payoutView, type PayoutView } from '../../operations.views.js';
import { type OperationsPorts } from '../operations.ports.js';
import { findPayout, type PayoutRef } from '../shared/refs.js';

/** One payout, masked. */
export class GetPayout {
  constructor(private readonly d: Pick<OperationsPorts, 'pool' | 'payouts'>) {}

  async execute(ref: PayoutRef): Promise<PayoutView> {
    return payoutView(await findPayout(this.d, ref));
  }
}
