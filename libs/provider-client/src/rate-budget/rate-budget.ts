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
  | { readonly ok: true; /** How long the caller waited for its slot (metrics). */ readonly waitedMs: number }
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
