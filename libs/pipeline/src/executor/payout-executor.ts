import { setTimeout as sleep } from 'node:timers/promises';
import { type PayoutLedger } from '#ledger';
import { type AppLogger, type PollOutcome, Poller, type WorkerMetricsPort } from '#observability';
import { type PayoutSubmission } from '../shared/payout-submission.js';

export interface ExecutorSettings {
  readonly owner: string;
  readonly concurrency: number;
  readonly leaseMs: number;
  readonly idlePollMs: number;
}

export interface ExecutorDeps {
  ledger: PayoutLedger;
  logger: AppLogger;
  /** Counts failed claims (payouts_worker_failures_total{worker="executor"}). */
  workerMetrics?: WorkerMetricsPort;
}

/**
 * Executes RECEIVED payouts. Claims rows under SKIP LOCKED with a lease and marks them SUBMITTING
 * (with its event) in a committed transaction BEFORE the provider call; then records the outcome
 * and its event in one transaction. The lease is renewed while the call runs (LeaseKeeper); a
 * crash in between leaves a SUBMITTING row whose lease expires, and the reconciler asks the
 * provider about it before any re-send.
 */
export class PayoutExecutor {
  private inFlight = 0;
  private readonly poller: Poller;

  constructor(
    private readonly d: ExecutorDeps,
    private readonly s: ExecutorSettings,
    private readonly submission: PayoutSubmission,
  ) {
    this.poller = new Poller({
      name: 'executor',
      logger: d.logger,
      metrics: d.workerMetrics,
      step: () => this.step(),
      pollMs: s.idlePollMs,
      failureMessage: 'executor: claim failed; retrying',
    });
  }

  start(): void {
    this.poller.start();
  }

  /** Intake calls this after a commit, so new work starts without waiting for the poll. */
  wake(): void {
    this.poller.wake();
  }

  /**
   * Stops claiming. Resolves once the claim loop has ended and, unless `untilClaimsEnd`, once
   * the calls in flight have recorded their outcomes (the service's shutdown drains those itself,
   * under a deadline, through PayoutSubmission).
   */
  async stop(untilClaimsEnd = false): Promise<void> {
    await this.poller.stop();
    if (untilClaimsEnd) return;
    while (this.inFlight > 0) await sleep(10);
  }

  /**
   * One claim, as many rows as there are free slots. Fewer rows than asked for: none is left now,
   * so wait for a wake (kept if one came during the claim) or the poll, rather than spend a
   * transaction finding nothing; all slots busy: wait for one to free (it wakes the poller).
   */
  private async step(): Promise<PollOutcome> {
    const free = this.s.concurrency - this.inFlight;
    const claimed = free > 0 ? await this.claimAndDispatch(free) : 0;
    return claimed < free || this.inFlight >= this.s.concurrency ? 'idle' : 'busy';
  }

  private async claimAndDispatch(limit: number): Promise<number> {
    const rows = await this.d.ledger.claimForSubmission(this.s.owner, this.s.leaseMs, limit);
    for (const row of rows) {
      this.inFlight++;
      void this.submission.run(row).finally(() => {
        this.inFlight--;
        this.poller.wake();
      });
    }
    return rows.length;
  }
}
