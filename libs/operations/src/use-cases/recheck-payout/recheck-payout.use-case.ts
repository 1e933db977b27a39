import { type PayoutRow } from '#ledger';
import { apiOf, hasStatusCheck } from '#pipeline';
import { OperationsError, OperationsErrorCode } from '../../operations.errors.js';
import { payoutView, type PayoutView } from '../../operations.views.js';
import { type Operator } from '../../operators.js';
import { type OperationsPorts } from '../operations.ports.js';
import { allow, recorded } from '../shared/operator-actions.js';
import { findPayout, type PayoutRef } from '../shared/refs.js';

export const OPERATOR_RECHECK_REASON = 'operator_recheck';

export interface RecheckResult {
  /** `scheduled`: due now, same state; `reopened`: REQUIRES_ATTENTION moved back to UNKNOWN. */
  action: 'scheduled' | 'reopened';
  payout: PayoutView;
}

/**
 * Asks the reconciler to check a payout now. It never sends anything itself: it only makes a row
 * due (or moves REQUIRES_ATTENTION back to UNKNOWN), and the reconciler decides, with its usual rules.
 */
export class RecheckPayout {
  constructor(
    private readonly d: Pick<OperationsPorts, 'pool' | 'payouts' | 'ledger' | 'actions' | 'logger'>,
  ) {}

  async execute(who: Operator, ref: PayoutRef): Promise<RecheckResult> {
    allow(who, 'recheck');
    const row = await findPayout(this.d, ref);
    const on = { payoutId: row.id, accountId: ref.accountId, transferId: ref.transferId };
    return recorded(this.d, who, 'recheck', on, async () => {
      const r = await this.recheckRow(who, row);
      return { value: r, result: r.action };
    });
  }

  private async recheckRow(who: Operator, row: PayoutRow): Promise<RecheckResult> {
    const { transferId } = row;
    switch (row.status) {
      case 'SUCCESS':
      case 'FAILED':
      case 'REJECTED':
      case 'REVERSED':
        throw new OperationsError(
          OperationsErrorCode.Terminal,
          `payout ${transferId} is ${row.status}, a final state: there is nothing to check`,
        );
      case 'RECEIVED':
        throw new OperationsError(
          OperationsErrorCode.NotSubmitted,
          `payout ${transferId} has not been sent yet; the executor will send it`,
        );
      case 'AWAITING_APPROVAL':
        throw new OperationsError(
          OperationsErrorCode.NotSubmitted,
          `payout ${transferId} waits for approval under its account's policy: nothing was sent`,
        );
      case 'HELD_FOR_FUNDS':
        throw new OperationsError(
          OperationsErrorCode.NotSubmitted,
          `payout ${transferId} is held for funds (its account's balance does not cover it): nothing was sent; it is sent when a balance reading shows room`,
        );
      case 'REQUIRES_ATTENTION':
        return this.reopen(who, row);
      case 'PENDING':
      case 'UNKNOWN':
      case 'SUBMITTING': {
        const due = await this.d.payouts.checkNow(this.d.pool, row.id);
        if (!due)
          throw new OperationsError(
            OperationsErrorCode.InFlight,
            `payout ${transferId} is being worked on right now (a call or a check is in flight); try again shortly`,
          );
        this.d.logger.info(
          { transferId, requestId: row.requestId, status: row.status, operator: who.id },
          'operator recheck: payout due for a check now',
        );
        return { action: 'scheduled', payout: payoutView(due) };
      }
    }
  }

  private async reopen(who: Operator, row: PayoutRow): Promise<RecheckResult> {
    // Without a status endpoint (the kind table) the reconciler would only send it back here.
    if (!hasStatusCheck(row.kind, apiOf(row)))
      throw new OperationsError(
        OperationsErrorCode.NoStatusEndpoint,
        `a ${row.kind} has no status endpoint: its state cannot be checked automatically; confirm it with the provider`,
      );
    const moved = await this.d.ledger.reopen(row, OPERATOR_RECHECK_REASON, { operatorId: who.id });
    if (!moved)
      throw new OperationsError(
        OperationsErrorCode.ConcurrentChange,
        `payout ${row.transferId} changed meanwhile; look it up again`,
      );
    return { action: 'reopened', payout: payoutView(moved) };
  }
}
