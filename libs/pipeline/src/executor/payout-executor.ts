import { setTimeout as sleep } from 'node:timers/promises';
import { type PayoutLedger } from '#ledger';
import { type AppLogger } from '#observability';
import { type PayoutSubmission } from '../shared/payout-submission.js';
import { type BatchProcessor } from '../batches/batch-processor.js';

export interface ExecutorSettings {
  readonly owner: string;
  readonly concurrency: number;
  readonly leaseMs: number;
  readonly idlePollMs: number;
}

export interface ExecutorDeps {
  ledger: PayoutLedger;
  logger: AppLogger;
  /** Batches are submitted from a loop of their own, a few at a time. */
  batches?: BatchProcessor;
}

/**
 * Executes RECEIVED payouts. Claims rows under SKIP LOCKED with a lease and marks them SUBMITTING
 * (with its event) in a committed transaction BEFORE the provider call; then records the outcome
 * and its event in one transaction. The lease is renewed while the call runs (LeaseKeeper); a
 * crash in between leaves a SUBMITTING row whose lease expires, and the reconciler asks the
 * provider about it before any re-send.
 */
export class PayoutExecutor {
  private running = false;
  private loop: Promise<void> | undefined;
  private batchLoop: Promise<void> | undefined;
  private inFlight = 0;
  private wakeUp: (() => void) | undefined;

  constructor(
    private readonly d: ExecutorDeps,
    private readonly s: ExecutorSettings,
    private readonly submission: PayoutSubmission,
  ) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
    // A batch call is slow (hundreds of entries) and must not hold up single payouts.
    if (this.d.batches) this.batchLoop = this.runBatches(this.d.batches);
  }

  /** Intake calls this after a commit, so new work starts without waiting for the poll. */
  wake(): void {
    this.wakeUp?.();
    this.wakeBatches?.();
  }

  /**
   * Stops claiming. Resolves once the claim loops have ended and, unless `untilClaimsEnd`, once
   * the calls in flight have recorded their outcomes (the service's shutdown drains those itself,
   * under a deadline, through PayoutSubmission).
   */
  async stop(untilClaimsEnd = false): Promise<void> {
    this.running = false;
    this.wake();
    await Promise.all([this.loop, this.batchLoop]);
    if (untilClaimsEnd) return;
    while (this.inFlight > 0) await sleep(10);
  }

  private async run(): Promise<void> {
    while (this.running) {
      let claimed = 0;
      try {
        const free = this.s.concurrency - this.inFlight;
        if (free > 0) claimed = await this.claimAndDispatch(free);
      } catch (e) {
        this.d.logger.error({ err: e }, 'executor: claim failed; retrying');
        await sleep(this.s.idlePollMs);
      }
      if (claimed === 0 || this.inFlight >= this.s.concurrency) await this.idle();
    }
  }

  private wakeBatches: (() => void) | undefined;

  private async runBatches(batches: BatchProcessor): Promise<void> {
    while (this.running) {
      let n = 0;
      try {
        n = await batches.submitDue(2);
      } catch (e) {
        this.d.logger.error({ err: e }, 'executor: batch submission failed; retrying');
      }
      if (n === 0 && this.running) {
        await new Promise<void>((resolve) => {
          const t = setTimeout(done, this.s.idlePollMs);
          function done() {
            clearTimeout(t);
            resolve();
          }
          this.wakeBatches = done;
        });
      }
    }
  }

  private idle(): Promise<void> {
    return new Promise((resolve) => {
      const t = setTimeout(done, this.s.idlePollMs);
      function done() {
        clearTimeout(t);
        resolve();
      }
      this.wakeUp = done;
    });
  }

  private async claimAndDispatch(limit: number): Promise<number> {
    const rows = await this.d.ledger.claimForSubmission(this.s.owner, this.s.leaseMs, limit);
    for (const row of rows) {
      this.inFlight++;
      void this.submission.run(row).finally(() => {
        this.inFlight--;
        this.wakeUp?.();
      });
    }
    return rows.length;
  }
}
