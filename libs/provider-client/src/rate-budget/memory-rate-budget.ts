import { type RateClass } from '../core/endpoint-adapter.js';
import { RateLimiter, sleep } from '../transport/token-bucket.js';
import { type RateBudget, type RateBudgetKey, type RateGrant } from './rate-budget.js';

/**
 * One process's budget: a token bucket per (account, endpoint). Right for a single instance; with
 * several, each would spend the whole account's limit (use SharedRateBudget).
 */
export class MemoryRateBudget implements RateBudget {
  private readonly limiter: RateLimiter;

  constructor(
    perMinuteFor: (rateClass: RateClass) => number,
    private readonly now: () => number = Date.now,
  ) {
    this.limiter = new RateLimiter((rc) => perMinuteFor(rc as RateClass), now);
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
