import { type RateClass } from '../core/endpoint-adapter.js';

/**
 * What the provider limits: one account's calls to one endpoint. The limit is the account's, so
 * every process that sends on the account draws from the same budget.
 */
export interface RateBudgetKey {
  readonly accountId: string;
  /** The adapter's name (`requestTransfer`): the provider counts per endpoint. */
  readonly endpoint: string;
  readonly rateClass: RateClass;
}

/**
 * The answer to "may I send now?". `ok` means now: the budget has already waited for the
 * caller's slot. A refusal books nothing, so the caller sends nothing and its request is
 * retry-safe.
 */
export type RateGrant =
  | {
      readonly ok: true;
      /** How long the caller waited for its slot (metrics). */
      readonly waitedMs: number;
      /**
       * Asked just before the send: false if the slot has passed by more than the budget allows
       * meanwhile (the slot is then lost; the caller must acquire again, not send). Absent: always
       * on time.
       */
      readonly onTime?: () => boolean;
    }
  | {
      readonly ok: false;
      /**
       * `wait-too-long`: the slot would come after `maxWaitMs`. `unavailable`: the budget could
       * not be asked (its store is unreachable, or it is closed); never "send anyway".
       */
      readonly reason: 'wait-too-long' | 'unavailable';
    };

/**
 * The port the request executor asks before each send. Implementations: `MemoryRateBudget` (one
 * process's token buckets) and `SharedRateBudget` (slots reserved in blocks from a store every
 * instance shares, e.g. Postgres).
 */
export interface RateBudget {
  /** Resolves when the caller may send on `key`, or with a refusal; never rejects. */
  acquire(key: RateBudgetKey, maxWaitMs: number): Promise<RateGrant>;
  /** The provider said stop (429, or `remaining: 0`): nobody sends on `key` for `ms`. */
  pause(key: RateBudgetKey, ms: number): void;
  close(): Promise<void>;
}

/** Calls per minute the client aims for on a class: the provider's limit times the target fraction. */
export function targetPerMinute(
  limits: Readonly<Record<RateClass, number>>,
  rateClass: RateClass,
  fraction = 1,
): number {
  return (limits[rateClass] ?? limits.default) * fraction;
}

/** What a burst allowance is computed from: the provider's limit and how the client aims under it. */
export interface BurstInputs {
  /** The provider's published limit, calls per minute. */
  readonly limitPerMinute: number;
  /** Spacing of the client's slots at its target rate, in ms (60,000 / target, or the rounded-up step). */
  readonly stepMs: number;
  /** The provider's counting window (a minute); its limit per window is the per-minute limit scaled. */
  readonly windowMs: number;
  /**
   * How late after its slot a send may be counted by the provider: how late it may leave (the
   * shared budget's `lateMs`) plus how long it may take to arrive (`DELIVERY_ALLOWANCE_MS`).
   */
  readonly lateMs: number;
}

/**
 * How long a send may take from leaving the client to being counted by the provider, in the
 * burst's bound. Measured in the bench (two services and the sandbox on a loaded 2-core box): p99
 * 158 ms, and 420-450 ms for the burst at the start (connections being opened); 9,007 in one 60 s
 * with 20 ms allowed. Late arrivals beyond it can still push a window over the limit only if they
 * fall in a window that also holds a burst.
 */
export const DELIVERY_ALLOWANCE_MS = 400;

/**
 * How many sends may go at once after idle (at least 1): a token bucket's capacity, or GCRA's
 * tolerance plus the caller's own slot. Sends at a step T with a burst B, each counted by the
 * provider up to D after its slot, put at most ceil((W + (B − 1)·T + D) / T) <= (W + D) / T + B
 * into any window of length W, so B = floor(L_W − (W + D) / T) keeps every window at or under the
 * limit L_W. At 9,000/min and 0.99: 90 for a punctual client with instant delivery (D = 0: the
 * (1 − fraction) × limit), 17 for the shared budget (step rounded up to 6,735 us, D = 100 ms late
 * on the store's clock + 400 ms delivery). At the bench's 600,000/min: 6,862 shared (102 us step),
 * 1,050 in memory (exact step, D = 500 ms too).
 */
export function burstSlots(b: BurstInputs): number {
  const perWindow = (b.limitPerMinute * b.windowMs) / 60_000;
  return Math.max(1, Math.floor(perWindow - (b.windowMs + b.lateMs) / b.stepMs));
}
