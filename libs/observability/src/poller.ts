import { type AppLogger } from './logger.js';

/**
 * What one step of a polling worker found:
 * - `busy`: more work is waiting; the next step starts at once;
 * - `idle`: nothing more now; wait the poll interval, or less if woken;
 * - `{ waitMs }`: wait this long (or less if woken) instead of the poll interval.
 */
export type PollOutcome = 'busy' | 'idle' | { readonly waitMs: number };

export interface PollerOptions {
  /** Names the worker in logs and in `payouts_worker_failures_total{worker}`. */
  readonly name: string;
  readonly logger: AppLogger;
  /** One claim-and-handle step. A throw starts (or continues) an error streak. */
  readonly step: () => Promise<PollOutcome>;
  /** The wait after an idle step. */
  readonly pollMs: number;
  /**
   * After the n-th failed step in a row: min(maxMs, firstMs * 2^(n-1)). Defaults: 200 ms, then
   * doubling to max(5 s, pollMs). A wake does not cut a back-off short; stop() does.
   */
  readonly backoff?: { readonly firstMs?: number; readonly maxMs?: number };
  /** Counts every failed step (the first of a streak is also logged, the rest only counted). */
  readonly metrics?: WorkerMetricsPort;
  /** The log message of a streak's first failure (default: `<name>: step failed; backing off`). */
  readonly failureMessage?: string;
}

/** Where a worker's failed steps are counted (WorkerMetrics, or a test's fake). */
export interface WorkerMetricsPort {
  failed(worker: string): void;
}

/**
 * The one polling worker (ADR 0025): runs `step` in a loop, one step at a time, and between steps
 * waits as the step said, or for the poll interval, cut short by `wake()`. A wake that comes while
 * a step runs is kept: the wait after that step returns at once, so work committed during a look
 * is not slept through. After a failed step it backs off exponentially up to a cap, logs the first
 * failure of a streak (and the recovery), and counts every one. `stop()` ends any wait at once and
 * resolves when the step in progress (if any) has ended; no step starts after it.
 */
export class Poller {
  private _running = false;
  private loop: Promise<void> = Promise.resolve();
  private woken = false;
  private endWait: (() => void) | undefined;
  /** Whether the current wait ends on wake() (an idle wait) or only on stop() (a back-off). */
  private wakeable = false;
  private failures = 0;
  private streakStart = 0;
  /** Which start() the running loop belongs to: a loop of an earlier one ends after its step. */
  private generation = 0;

  constructor(private readonly o: PollerOptions) {}

  /** True from start() until stop() is called. */
  get running(): boolean {
    return this._running;
  }

  /** Starts the loop; a no-op while it runs. After a stop(), a new loop starts once the old one has ended. */
  start(): void {
    if (this._running) return;
    this._running = true;
    const generation = ++this.generation;
    this.loop = this.loop.then(() => this.run(generation));
  }

  /** New work may be waiting: ends an idle wait now, or the next one at once. */
  wake(): void {
    this.woken = true;
    if (this.wakeable) this.endWait?.();
  }

  /**
   * The step in progress has got somewhere (a long-lived one: a stream that connected): an error
   * streak ends here, so a failure after it is logged and backed off from the start again.
   */
  progressed(): void {
    this.recovered();
  }

  /**
   * Ends any wait now; resolves once the step in progress has ended. A start() before then starts
   * a new loop once this one has ended.
   */
  async stop(): Promise<void> {
    this._running = false;
    this.endWait?.();
    await this.loop;
  }

  private async run(generation: number): Promise<void> {
    const live = () => this._running && this.generation === generation;
    while (live()) {
      // A wake before this step is answered by it; one during it makes the next wait return at once.
      this.woken = false;
      let outcome: PollOutcome;
      try {
        outcome = await this.o.step();
        this.recovered();
      } catch (e) {
        const backoff = this.failed(e);
        if (live()) await this.pause(backoff, false);
        continue;
      }
      if (!live()) break;
      if (outcome === 'busy') continue;
      await this.pause(outcome === 'idle' ? this.o.pollMs : outcome.waitMs, true);
    }
  }

  /** Counts and (first of a streak) logs a failed step; returns the back-off before the next one. */
  private failed(e: unknown): number {
    this.failures++;
    this.o.metrics?.failed(this.o.name);
    if (this.failures === 1) {
      this.streakStart = Date.now();
      this.o.logger.error(
        { err: e, worker: this.o.name },
        this.o.failureMessage ?? `${this.o.name}: step failed; backing off`,
      );
    }
    const first = this.o.backoff?.firstMs ?? 200;
    const max = this.o.backoff?.maxMs ?? Math.max(5_000, this.o.pollMs);
    return Math.min(max, first * 2 ** Math.min(this.failures - 1, 30));
  }

  private recovered(): void {
    if (this.failures === 0) return;
    this.o.logger.info(
      { worker: this.o.name, failures: this.failures, forMs: Date.now() - this.streakStart },
      `${this.o.name}: recovered after failed steps`,
    );
    this.failures = 0;
  }

  private async pause(ms: number, wakeable: boolean): Promise<void> {
    if (ms <= 0 || (wakeable && this.woken)) return;
    await new Promise<void>((resolve) => {
      let timer: NodeJS.Timeout | undefined = undefined;
      const done = (): void => {
        clearTimeout(timer);
        if (this.endWait === done) this.endWait = undefined;
        resolve();
      };
      timer = setTimeout(done, ms);
      this.endWait = done;
      this.wakeable = wakeable;
    });
    this.wakeable = false;
  }
}
