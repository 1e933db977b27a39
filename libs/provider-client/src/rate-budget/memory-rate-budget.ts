import { type RateClass } from '../core/endpoint-adapter.js';
import { RateLimiter, sleep } from '../transport/token-bucket.js';
import {
  burstSlots,
  DELIVERY_ALLOWANCE_MS,
  type RateBudget,
  type RateBudgetKey,
  type RateGrant,
} from './rate-budget.js';

/** The burst allowance's inputs (see `burstSlots`); without them the bucket holds one second's worth. */
export interface MemoryBurstSettings {
  /** The provider's published limit per class, calls per minute. */
  readonly limitPerMinuteFor: (rateClass: RateClass) => number;
  /** The provider's counting window (default a minute). */
  readonly windowMs?: number;
  /**
   * Lateness allowed for in the bound, delivery included (default 100 ms, as the shared budget's,
   * plus `DELIVERY_ALLOWANCE_MS`).
   */
  readonly lateMs?: number;
}

/**
 * One process's budget: a token bucket per (account, endpoint). Right for a single instance; with
 * several, each would spend the whole account's limit (use SharedRateBudget).
 */
export class MemoryRateBudget implements RateBudget {
  private readonly limiter: RateLimiter;

  constructor(
    perMinuteFor: (rateClass: RateClass) => number,
    private readonly now: () => number = Date.now,
    burst?: MemoryBurstSettings,
  ) {
    // The bucket's capacity is the burst: the same bound as the shared budget's GCRA tolerance.
    const capacityFor = burst
      ? (rc: string) =>
          burstSlots({
            limitPerMinute: burst.limitPerMinuteFor(rc as RateClass),
            stepMs: 60_000 / perMinuteFor(rc as RateClass),
            windowMs: burst.windowMs ?? 60_000,
            lateMs: burst.lateMs ?? 100 + DELIVERY_ALLOWANCE_MS,
          })
      : undefined;
    this.limiter = new RateLimiter((rc) => perMinuteFor(rc as RateClass), now, capacityFor);
  }

  async acquire(key: RateBudgetKey, maxWaitMs: number): Promise<RateGrant> {
    const wait = this.bucket(key).reserve(maxWaitMs);
    if (wait === undefined) return { ok: false, reason: 'wait-too-long' };
    await sleep(wait);
    return { ok: true, waitedMs: wait };
  }

  pause(key: RateBudgetKey, ms: number): void {
    this.bucket(key).pauseUntil(this.now() + ms);
  }

  async close(): Promise<void> {}

  private bucket(key: RateBudgetKey) {
    return this.limiter.bucket(key.accountId, key.endpoint, key.rateClass);
  }
}
