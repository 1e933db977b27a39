import type pg from 'pg';
import { type BatchRepository, type PayoutLedger, type PayoutRepository, type PayoutRow } from '#ledger';
import { type AppLogger } from '#observability';
import { hasStatusCheck } from '#pipeline';
import { OperationsError, OperationsErrorCode } from './operations.errors.js';
import { batchView, payoutView, type BatchView, type PayoutView } from './operations.views.js';

/**
 * Puts a dead outbox row back to pending (the relay's replay), which unblocks its key: the row is
 * its key's head, and a pending copy of its event behind it is dropped in favour of the replayed row.
 */
export type ReplayDead = (idOrEventId: string) => Promise<'replayed' | 'not-found'>;

export interface OperationsDeps {
  pool: pg.Pool;
  payouts: PayoutRepository;
  batches: BatchRepository;
  /** The reopen of a payout is a state change: through the ledger step, like every other. */
  ledger: PayoutLedger;
  replayDead: ReplayDead;
  logger: AppLogger;
}

export interface RecheckResult {
  /** `scheduled`: due now, same state; `reopened`: REQUIRES_ATTENTION moved back to UNKNOWN. */
  action: 'scheduled' | 'reopened';
  payout: PayoutView;
}

export const OPERATOR_RECHECK_REASON = 'operator_recheck';
export const MAX_ATTENTION_LIMIT = 500;

/**
 * The operator's use cases: look up payouts and batches (masked), list what needs a person, ask
 * the reconciler to check a payout now, and replay a dead outbox row. A recheck never sends
 * anything itself: it only makes a row due (or moves REQUIRES_ATTENTION back to UNKNOWN), and
 * the reconciler decides, with its usual rules: kinds whose re-send is unsafe are only ever
 * status-checked.
 */
export class OperationsService {
  constructor(private readonly d: OperationsDeps) {}

  async payout(accountId: string, transferId: string): Promise<PayoutView> {
    const row = await this.d.payouts.findOne(this.d.pool, accountId, transferId);
    if (!row) throw notFound(`no payout ${transferId} for account ${accountId}`);
    return payoutView(row);
  }

  async batch(accountId: string, batchTransferId: string): Promise<BatchView> {
    const row = await this.d.batches.findOne(this.d.pool, accountId, batchTransferId);
    if (!row) throw notFound(`no batch ${batchTransferId} for account ${accountId}`);
    const items = await this.d.batches.items(this.d.pool, row.id);
    return batchView(row, items);
  }

  async requiringAttention(limit: number): Promise<{ payouts: PayoutView[]; batches: BatchView[] }> {
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_ATTENTION_LIMIT)
      throw new OperationsError(
        OperationsErrorCode.InvalidInput,
        `limit must be an integer from 1 to ${MAX_ATTENTION_LIMIT}`,
      );
    const [payouts, batches] = await Promise.all([
      this.d.payouts.requiringAttention(this.d.pool, limit),
      this.d.batches.requiringAttention(this.d.pool, limit),
    ]);
    return { payouts: payouts.map(payoutView), batches: batches.map((b) => batchView(b)) };
  }

  async recheck(accountId: string, transferId: string): Promise<RecheckResult> {
    const row = await this.d.payouts.findOne(this.d.pool, accountId, transferId);
    if (!row) throw notFound(`no payout ${transferId} for account ${accountId}`);
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
      case 'REQUIRES_ATTENTION':
        return this.reopen(row);
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
          { transferId, requestId: row.requestId, status: row.status },
          'operator recheck: payout due for a check now',
        );
        return { action: 'scheduled', payout: payoutView(due) };
      }
    }
  }

  async replayDeadEvent(eventId: string): Promise<void> {
    const result = await this.d.replayDead(eventId);
    switch (result) {
      case 'replayed':
        this.d.logger.info({ eventId }, 'operator replay: dead outbox row is pending again');
        return;
      case 'not-found':
        throw notFound(`no dead outbox row for ${eventId}`);
    }
  }

  private async reopen(row: PayoutRow): Promise<RecheckResult> {
    // Without a status endpoint (the kind table) the reconciler would only send it back here.
    if (!hasStatusCheck(row.kind))
      throw new OperationsError(
        OperationsErrorCode.NoStatusEndpoint,
        `a ${row.kind} has no status endpoint: its state cannot be checked automatically; confirm it with the provider`,
      );
    const moved = await this.d.ledger.reopen(row, OPERATOR_RECHECK_REASON, 'operations');
    if (!moved)
      throw new OperationsError(
        OperationsErrorCode.ConcurrentChange,
        `payout ${row.transferId} changed meanwhile; look it up again`,
      );
    return { action: 'reopened', payout: payoutView(moved) };
  }
}

function notFound(message: string): OperationsError {
  return new OperationsError(OperationsErrorCode.NotFound, message);
}
