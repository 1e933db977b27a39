import { type BatchLedger } from '#ledger';
import { type AppLogger, Poller, type WorkerMetricsPort } from '#observability';
import { type BatchSubmission } from './batch-submission.js';

export interface BatchSubmitWorkerDeps {
  ledger: BatchLedger;
  submission: BatchSubmission;
  logger: AppLogger;
  /** Counts failed rounds (payouts_worker_failures_total{worker="batch_submit"}). */
  workerMetrics?: WorkerMetricsPort;
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
  private readonly poller: Poller;

  constructor(
    private readonly d: BatchSubmitWorkerDeps,
    private readonly s: BatchSubmitWorkerSettings,
  ) {
    this.poller = new Poller({
      name: 'batch_submit',
      logger: d.logger,
      metrics: d.workerMetrics,
      step: async () => ((await this.submitDue(s.perRound)) === 0 ? 'idle' : 'busy'),
      pollMs: s.idlePollMs,
      failureMessage: 'batch submission failed; retrying',
    });
  }

  start(): void {
    this.poller.start();
  }

  /** Intake calls this after a commit, so a new batch starts without waiting for the poll. */
  wake(): void {
    this.poller.wake();
  }

  /** Stops claiming; resolves once the round in progress (its sends included) has ended. */
  async stop(): Promise<void> {
    await this.poller.stop();
  }

  /** Claims RECEIVED batches and submits them. Returns how many it claimed. */
  async submitDue(limit: number): Promise<number> {
    const claimed = await this.d.ledger.claimForSubmission(this.s.owner, this.s.leaseMs, limit);
    await Promise.all(claimed.map((b) => this.d.submission.submit(b)));
    return claimed.length;
  }
}
