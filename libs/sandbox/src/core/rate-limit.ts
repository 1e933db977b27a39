import { type SandboxClock } from './clock.js';
import { type EndpointId, type RateGroup } from './settings.js';

export interface RateDecision {
  readonly allowed: boolean;
  readonly limit: number;
  readonly remaining: number;
  /** Seconds until the window resets (1-60). */
  readonly retry: number;
}

const WINDOW_MS = 60_000;

/** Fixed one-minute windows per endpoint on the sandbox clock; limit 0 means unlimited. */
export class RateLimiter {
  private readonly windows = new Map<EndpointId, { start: number; count: number }>();
  private readonly overrides = new Map<EndpointId, number>();

  constructor(
    private readonly clock: SandboxClock,
    private readonly limits: Readonly<Record<RateGroup, number>>,
  ) {}

  take(endpoint: EndpointId, group: RateGroup): RateDecision {
    const limit = this.overrides.get(endpoint) ?? this.limits[group];
    if (limit <= 0) return { allowed: true, limit: 0, remaining: 0, retry: 0 };
    const now = this.clock.now();
    let w = this.windows.get(endpoint);
    if (!w || now - w.start >= WINDOW_MS) {
      w = { start: now - (now % WINDOW_MS), count: 0 };
      this.windows.set(endpoint, w);
    }
    const retry = Math.max(1, Math.ceil((w.start + WINDOW_MS - now) / 1000));
    if (w.count >= limit) return { allowed: false, limit, remaining: 0, retry };
    w.count += 1;
    return { allowed: true, limit, remaining: limit - w.count, retry };
  }

  setOverride(endpoint: EndpointId, perMinute: number | undefined): void {
    if (perMinute === undefined) this.overrides.delete(endpoint);
    else this.overrides.set(endpoint, perMinute);
  }

  reset(): void {
    this.windows.clear();
    this.overrides.clear();
  }
}
