/**
 * A token bucket that hands out reservations: a caller that finds it empty books the next free
 * slot and sleeps until then, so waiters are served in order and never stampede on refill.
 */
export class TokenBucket {
  private tokens: number;
  private updatedAt: number;
  private pausedUntil = 0;

  constructor(
    private readonly perMinute: number,
    private readonly now: () => number = Date.now,
    /** Burst: one second's worth by default, at least one. */
    private readonly capacity: number = Math.max(1, Math.ceil(perMinute / 60)),
  ) {
    this.tokens = capacity;
    this.updatedAt = now();
  }

  /**
   * Books one request. Returns how long to wait before sending, or undefined when that wait would
   * exceed `maxWaitMs` (then nothing is booked, so a refused caller costs the others nothing).
   */
  reserve(maxWaitMs: number): number | undefined {
    const t = this.now();
    this.refill(t);
    const pauseWait = Math.max(0, this.pausedUntil - t);
    const deficit = 1 - this.tokens;
    const refillWait = deficit > 0 ? Math.ceil((deficit * 60_000) / this.perMinute) : 0;
    const wait = Math.max(pauseWait, refillWait);
    if (wait > maxWaitMs) return undefined;
    this.tokens -= 1;
    return wait;
  }

  /** The provider said stop (429): nobody on this bucket sends before `untilMs`. */
  pauseUntil(untilMs: number): void {
    this.pausedUntil = Math.max(this.pausedUntil, untilMs);
  }

  private refill(t: number): void {
    const elapsed = Math.max(0, t - this.updatedAt);
    this.tokens = Math.min(this.capacity, this.tokens + (elapsed * this.perMinute) / 60_000);
    this.updatedAt = t;
  }
}

export class RateLimiter {
  private readonly buckets = new Map<string, TokenBucket>();

  constructor(
    private readonly perMinuteFor: (rateClass: string) => number,
    private readonly now: () => number = Date.now,
    /** The bucket's capacity per class (the burst after idle); default one second's worth. */
    private readonly capacityFor?: (rateClass: string) => number,
  ) {}

  bucket(accountId: string, endpoint: string, rateClass: string): TokenBucket {
    const key = `${accountId}\u0000${endpoint}`;
    let b = this.buckets.get(key);
    if (!b) {
      b = new TokenBucket(this.perMinuteFor(rateClass), this.now, this.capacityFor?.(rateClass));
      this.buckets.set(key, b);
    }
    return b;
  }
}

/** Full jitter: a random wait up to the exponential cap, so retrying callers spread out. */
export function backoffMs(
  attempt: number,
  baseMs: number,
  maxMs: number,
  random: () => number = Math.random,
): number {
  const cap = Math.min(maxMs, baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(cap / 2 + (random() * cap) / 2);
}

export const sleep = (ms: number): Promise<void> =>
  ms <= 0 ? Promise.resolve() : new Promise((resolve) => setTimeout(resolve, ms));
