import { type BatchLedger } from '#ledger';
import { type AppLogger } from '#observability';
import { Idle } from '../shared/idle.js';
import { type BatchSubmission } from './batch-submission.js';

export interface BatchSubmitWorkerDeps {
  ledger: BatchLedger;
  submission: BatchSubmission;
  logger: AppLogger;
}

export interface BatchSubmitWorkerSettings {
  readonly owner: string;
  readonly leaseMs: number;
  readonly idlePollMs: number;
  /** Batches claimed per round: a batch call is slow (hundreds of entries). */
  readonly perRound: number;
}

/**
 * Claims RECEIVED batches (RECEIVED to SUBMITTING, with a lease, committed before the call) and
 * sends them, from a loop of its own: a batch call is slow and must not hold up single payouts.
 */
export class BatchSubmitWorker {
  private running = false;
  private loop: Promise<void> | undefined;
  private readonly idle = new Idle();

  constructor(
    private readonly d: BatchSubmitWorkerDeps,
    private readonly s: BatchSubmitWorkerSettings,
  ) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run();
  }

  /** Intake calls this after a commit, so a new batch starts without waiting for the poll. */
  wake(): void {
    this.idle.wake();
  }

  /** Stops claiming; resolves once the round in progress (its sends included) has ended. */
  async stop(): Promise<void> {
    this.running = false;
    this.wake();
    await this.loop;
  }

  /** Claims RECEIVED batches and submits them. Returns how many it claimed. */
  async submitDue(limit: number): Promise<number> {
    const claimed = await this.d.ledger.claimForSubmission(this.s.owner, this.s.leaseMs, limit);
    await Promise.all(claimed.map((b) => this.d.submission.submit(b)));
    return claimed.length;
  }

  private async run(): Promise<void> {
    while (this.running) {
      let n = 0;
      try {
        n = await this.submitDue(this.s.perRound);
      } catch (e) {
        this.d.logger.error({ err: e }, 'batch submission failed; retrying');
      }
      if (n === 0 && this.running) await this.idle.wait(this.s.idlePollMs);
    }
  }
}
