import { type LedgerTransaction } from '#ledger';
import { type AppLogger, Poller, type WorkerMetricsPort } from '#observability';
import { releaseHold, type ReleaseDeps } from './release-hold.js';

export interface ApprovalExpiryDeps extends ReleaseDeps {
  readonly transaction: <T>(work: (tx: LedgerTransaction) => Promise<T>) => Promise<T>;
  readonly logger: AppLogger;
  /** Counts failed rounds (payouts_worker_failures_total{worker="approval_expiry"}). */
  readonly workerMetrics?: WorkerMetricsPort;
}

export interface ApprovalExpirySettings {
  readonly pollMs: number;
  /** Holds ended per transaction. */
  readonly perRound?: number;
}

/**
 * The reconciler role's approval expiry (issue 30): a hold past its expiry ends, and its payout or
 * batch is REJECTED with reason approval_expired (nothing was sent, so the negative state is
 * safe). Holds are claimed with SKIP LOCKED, so any number of instances may run it, and a person's
 * decision in flight (which locks the hold) is never overtaken.
 */
export class ApprovalExpiryWorker {
  private readonly poller: Poller;

  constructor(
    private readonly d: ApprovalExpiryDeps,
    private readonly s: ApprovalExpirySettings,
  ) {
    this.poller = new Poller({
      name: 'approval_expiry',
      logger: d.logger,
      metrics: d.workerMetrics,
      step: () => this.round(),
      pollMs: s.pollMs,
      failureMessage: 'approval expiry failed; retrying',
    });
  }

  start(): void {
    this.poller.start();
  }

  async stop(): Promise<void> {
    await this.poller.stop();
  }

  /** Ends up to one round of expired holds; returns how many ended. */
  async expireDue(): Promise<number> {
    const limit = this.s.perRound ?? 100;
    return this.d.transaction(async (tx) => {
      const holds = await this.d.approvals.claimExpired(tx.client, limit);
      let n = 0;
      for (const h of holds) {
        if (await releaseHold(this.d, tx, h, 'expired')) {
          n += 1;
          continue;
        }
        // Only a hold's release moves its payout on: a defect. Closed, so it is not claimed forever.
        await this.d.approvals.close(tx.client, h.id, 'expired', 'not_waiting');
        this.d.logger.error(
          { holdId: h.id, accountId: h.accountId, transferId: h.transferId, subject: h.subject },
          'an approval hold had no waiting payout or batch; closed',
        );
      }
      return n;
    });
  }

  /** One round; another at once while holds were ending, else after the poll. */
  private async round(): Promise<'busy' | 'idle'> {
    const n = await this.expireDue();
    if (n === 0) return 'idle';
    this.d.logger.info({ expired: n }, 'approval holds expired: their payouts are REJECTED');
    return 'busy';
  }
}
