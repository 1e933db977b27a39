import { type SandboxClock } from './clock.js';
import { type EndpointId, type RateGroup } from './settings.js';

export interface RateDecision {
  readonly allowed: boolean;
  readonly limit: number;
  readonly remaining: number;
  /** Seconds until the window resets (1-60). */
  readonly retry: number;
}

/** The provider's window: its limits are per minute. */
export const PROVIDER_RATE_WINDOW_MS = 60_000;

/**
 * Fixed windows per endpoint on the sandbox clock (one account, so per account and endpoint, as
 * the provider counts; `x-ratelimit-retry` is the time to the window's end, 1-59 s); limit 0
 * means unlimited. A refused call is not counted. Limits are per minute; a shorter window (a test
 * knob: a test cannot run for minutes) allows the same share of the limit per window, so a client
 * that overruns the per-minute rate is refused within one short window.
 */
export class RateLimiter {
  private readonly windows = new Map<EndpointId, { start: number; count: number }>();
  private readonly overrides = new Map<EndpointId, number>();
  private readonly refused = new Map<EndpointId, number>();

  constructor(
    private readonly clock: SandboxClock,
    private readonly limits: Readonly<Record<RateGroup, number>>,
    private readonly windowMs: number = PROVIDER_RATE_WINDOW_MS,
  ) {}

  take(endpoint: EndpointId, group: RateGroup): RateDecision {
    const perMinute = this.overrides.get(endpoint) ?? this.limits[group];
    if (perMinute <= 0) return { allowed: true, limit: 0, remaining: 0, retry: 0 };
    const limit = Math.max(1, Math.floor((perMinute * this.windowMs) / PROVIDER_RATE_WINDOW_MS));
    const now = this.clock.now();
    let w = this.windows.get(endpoint);
    if (!w || now - w.start >= this.windowMs) {
      w = { start: now - (now % this.windowMs), count: 0 };
      this.windows.set(endpoint, w);
    }
    const retry = Math.max(1, Math.ceil((w.start + this.windowMs - now) / 1000));
    if (w.count >= limit) {
      this.refused.set(endpoint, (this.refused.get(endpoint) ?? 0) + 1);
      return { allowed: false, limit, remaining: 0, retry };
    }
    w.count += 1;
    return { allowed: true, limit, remaining: limit - w.count, retry };
  }

  /** Calls refused by the limit since the start (or the last reset), per endpoint. */
  refusals(): Record<string, number> {
    return Object.fromEntries(this.refused);
  }

  setOverride(endpoint: EndpointId, perMinute: number | undefined): void {
    if (perMinute === undefined) this.overrides.delete(endpoint);
    else this.overrides.set(endpoint, perMinute);
  }

  reset(): void {
    this.windows.clear();
    this.overrides.clear();
    this.refused.clear();
  }
}
