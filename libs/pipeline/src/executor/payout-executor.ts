import { setTimeout as sleep } from 'node:timers/promises';
import type pg from 'pg';
import { payoutStateEvent, type PayoutRepository } from '#ledger';
import { type AppLogger } from '#observability';
import { type OutboxWriter } from '../ports.js';
import { inTransaction } from '../transaction.js';
import { type PayoutSubmission } from './payout-submission.js';
import { type BatchProcessor } from '../batches/batch-processor.js';

export interface ExecutorSettings {
  readonly owner: string;
  readonly concurrency: number;
  readonly leaseMs: number;
  readonly idlePollMs: number;
}

export interface ExecutorDeps {
  pool: pg.Pool;
  payouts: PayoutRepository;
  outbox: OutboxWriter;
  logger: AppLogger;
  /** Batches are submitted from the same loop, a few at a time. */
  batches?: BatchProcessor;
}

/**
 * Executes RECEIVED payouts. Claims rows under SKIP LOCKED with a lease and marks them SUBMITTING
 * (with its event) in a committed transaction BEFORE the provider call; then records the outcome
 * and its event in one transaction. A crash in between leaves a SUBMITTING row whose lease
 * expires; the reconciler re-sends it with the same transferId.
 */
export class PayoutExecutor {
  private running = false;
  private loop: Promise<void> | undefined;
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
  }

  /** Intake calls this after a commit, so new work starts without waiting for the poll. */
  wake(): void {
    this.wakeUp?.();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.wake();
    await this.loop;
    while (this.inFlight > 0) await sleep(10);
  }

  private async run(): Promise<void> {
    while (this.running) {
      let claimed = 0;
      try {
        const free = this.s.concurrency - this.inFlight;
        if (free > 0) claimed = await this.claimAndDispatch(free);
        if (this.d.batches) claimed += await this.d.batches.submitDue(2);
      } catch (e) {
        this.d.logger.error({ err: e }, 'executor: claim failed; retrying');
        await sleep(this.s.idlePollMs);
      }
      if (claimed === 0 || this.inFlight >= this.s.concurrency) await this.idle();
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
    const rows = await inTransaction(this.d.pool, async (c) => {
      const claimed = await this.d.payouts.claimForSubmission(c, this.s.owner, this.s.leaseMs, limit);
      await this.d.outbox.enqueue(
        c,
        claimed.map((r) => payoutStateEvent(r)),
      );
      return claimed;
    });
    for (const row of rows) {
      this.d.logger.info(
        {
          transferId: row.transferId,
          requestId: row.requestId,
          kind: row.kind,
          from: 'RECEIVED',
          to: row.status,
          version: row.version,
          attempt: row.attempt,
        },
        'payout state changed',
      );
      this.inFlight++;
      void this.submission.run(row).finally(() => {
        this.inFlight--;
        this.wake();
      });
    }
    return rows.length;
  }
}
