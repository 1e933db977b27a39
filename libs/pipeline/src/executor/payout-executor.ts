import { setTimeout as sleep } from 'node:timers/promises';
import { type PayoutLedger } from '#ledger';
import { type AppLogger } from '#observability';
import { Idle } from '../shared/idle.js';
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
  private inFlight = 0;
  private readonly idleWait = new Idle();

  constructor(
    private readonly d: ExecutorDeps,
    private readonly s: ExecutorSettings,
    private readonly submission: PayoutSubmission,
  ) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  /** Intake calls this after a commit, so new work starts without waiting for the poll. */
  wake(): void {
    this.idleWait.wake();
  }

  /**
   * Stops claiming. Resolves once the claim loop has ended and, unless `untilClaimsEnd`, once
   * the calls in flight have recorded their outcomes (the service's shutdown drains those itself,
   * under a deadline, through PayoutSubmission).
   */
  async stop(untilClaimsEnd = false): Promise<void> {
    this.running = false;
    this.wake();
    await this.loop;
    if (untilClaimsEnd) return;
    while (this.inFlight > 0) await sleep(10);
  }

  private async run(): Promise<void> {
    while (this.running) {
      let claimed = 0;
      let free = 0;
      try {
        free = this.s.concurrency - this.inFlight;
        if (free > 0) claimed = await this.claimAndDispatch(free);
      } catch (e) {
        this.d.logger.error({ err: e }, 'executor: claim failed; retrying');
        await sleep(this.s.idlePollMs);
      }
      // Fewer rows than asked for: none is left now, so wait for a wake (kept if one came during
      // the claim) or the poll, rather than spend a transaction finding nothing.
      if (claimed < free || this.inFlight >= this.s.concurrency) await this.idle();
    }
  }

  private idle(): Promise<void> {
    return this.idleWait.wait(this.s.idlePollMs);
  }

  private async claimAndDispatch(limit: number): Promise<number> {
    const rows = await this.d.ledger.claimForSubmission(this.s.owner, this.s.leaseMs, limit);
    for (const row of rows) {
      this.inFlight++;
      void this.submission.run(row).finally(() => {
        this.inFlight--;
        this.idleWait.wake();
      });
    }
    return rows.length;
  }
}
