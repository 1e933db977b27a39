import { OperationsError, OperationsErrorCode } from '../../operations.errors.js';
import { payoutView, type PayoutView } from '../../operations.views.js';
import { type Operator } from '../../operators.js';
import { type OperationsPorts } from '../operations.ports.js';
import { allow, recorded } from '../shared/operator-actions.js';
import { findPayout, type PayoutRef } from '../shared/refs.js';

/** The reason a payout cancelled while held for funds carries (its `rejected` event's `reason`). */
export const CANCELLED_WHILE_HELD = 'cancelled_while_held';

/**
 * An operator cancels a payout held for funds (issue 32): finance will not fund it, or upstream no
 * longer wants it. It was never sent, so it ends REJECTED (reason `cancelled_while_held`, the
 * operator named in its history) through the ledger's one move, and nothing moves at the provider:
 * one person may. Anything but HELD_FOR_FUNDS is refused (409), as is a payout the executor sent
 * meanwhile (the ledger's move is from the version read: whichever commits first wins).
 */
export class CancelHeldPayout {
  constructor(private readonly d: Pick<OperationsPorts, 'pool' | 'payouts' | 'ledger' | 'actions'>) {}

  async execute(who: Operator, ref: PayoutRef): Promise<PayoutView> {
    allow(who, 'cancel_held');
    const row = await findPayout(this.d, ref);
    const on = { payoutId: row.id, accountId: ref.accountId, transferId: ref.transferId };
    return recorded(this.d, who, 'cancel_held', on, async () => {
      if (row.status !== 'HELD_FOR_FUNDS')
        throw new OperationsError(
          OperationsErrorCode.NotHeld,
          `payout ${row.transferId} is ${row.status}, not held for funds: only a held payout (never sent) can be cancelled here`,
        );
      const moved = await this.d.ledger.change(
        { row, to: 'REJECTED', fields: { reason: CANCELLED_WHILE_HELD }, actor: { operatorId: who.id } },
        'operations',
      );
      if (!moved)
        throw new OperationsError(
          OperationsErrorCode.ConcurrentChange,
          `payout ${row.transferId} changed meanwhile (it may have been sent); look it up again`,
        );
      return { value: payoutView(moved), result: 'cancelled' };
    });
  }
}
