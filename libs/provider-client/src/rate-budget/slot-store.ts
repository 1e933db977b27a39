/**
 * The store a SharedRateBudget reserves slots from: one row per (account, endpoint) holding the
 * theoretical arrival time (TAT) of GCRA, i.e. the next free send slot, and a pause. Every
 * instance on the account reserves from the same row, on the store's clock, so instances' own
 * clocks never matter. The Postgres implementation is `RateBudgetRepository` (#ledger), which serves
 * this port without importing it: the composition root hands it over.
 */
export interface SlotRequest {
  readonly accountId: string;
  readonly endpoint: string;
  /** Slots wanted (at least 1); fewer are granted when the horizon is reached. */
  readonly wanted: number;
  /** Spacing of slots, in whole microseconds (60e6 / calls per minute, rounded up). */
  readonly stepMicros: number;
  /** No slot is granted later than this far ahead of the store's clock. */
  readonly horizonMs: number;
  /**
   * GCRA's tolerance, in whole microseconds (the burst less one, times the step; 0: no burst):
   * a slot may be this far before the store's clock, i.e. due at once. After idle, that many
   * steps' worth of sends go together; under load the TAT is ahead of the clock and it is unused.
   */
  readonly toleranceMicros: number;
}

/** Times in milliseconds from the store's clock when it answered (negative: already due). */
export interface SlotGrant {
  /**
   * Slots granted: the first at `firstInMs`, the others `stepMicros` apart. A slot before the
   * clock (down to the tolerance) is due at once: send at the later of the slot and the clock.
   */
  readonly granted: number;
  readonly firstInMs: number;
  /** The next free slot after this grant (a pause included): when more room opens. */
  readonly nextInMs: number;
  /**
   * The store's clock when it granted, in ms on its own scale (Postgres: the Unix epoch). The
   * budget places the slots on its local clock from it, knowing the offset between the two clocks
   * to within the fastest recent round trip, instead of timing them from the answer's arrival
   * (late by the whole round trip: up to 600 ms on a loaded box).
   */
  readonly clockMs: number;
}

export interface RateSlotStore {
  reserve(r: SlotRequest): Promise<SlotGrant>;
  /** Nobody is granted a slot on (account, endpoint) before `ms` from the store's clock. */
  pause(accountId: string, endpoint: string, ms: number): Promise<void>;
}

/** One key's row: what the table holds, in milliseconds of the store's clock. */
export interface SlotRow {
  tat: number;
  pausedUntil: number;
}

/**
 * GCRA for a block: the slots start at the later of the row's TAT, now less the tolerance, and
 * the pause, are `step` apart, and stop at the horizon. The TAT moves past the last one granted.
 * (A pause ends with no burst: its first slot is the pause's end.) The SQL of `rateBudget.take`
 * computes the same; this is its model (and the in-memory store's).
 */
export function grantSlots(row: SlotRow, r: SlotRequest, now: number): SlotGrant {
  const step = r.stepMicros / 1000;
  const start = Math.max(row.tat, now - r.toleranceMicros / 1000, row.pausedUntil);
  const room = Math.floor((now + r.horizonMs - start) / step) + 1;
  const granted = Math.min(r.wanted, Math.max(0, room));
  row.tat = start + granted * step;
  return {
    granted,
    firstInMs: start - now,
    nextInMs: Math.max(row.tat, row.pausedUntil) - now,
    clockMs: now,
  };
}

/** A store in one process's memory (unit tests, and the model of the shared table). */
export class MemorySlotStore implements RateSlotStore {
  readonly rows = new Map<string, SlotRow>();
  reservations = 0;

  constructor(private readonly now: () => number = Date.now) {}

  async reserve(r: SlotRequest): Promise<SlotGrant> {
    this.reservations += 1;
    return grantSlots(this.row(r.accountId, r.endpoint), r, this.now());
  }

  async pause(accountId: string, endpoint: string, ms: number): Promise<void> {
    const row = this.row(accountId, endpoint);
    row.pausedUntil = Math.max(row.pausedUntil, this.now() + ms);
  }

  private row(accountId: string, endpoint: string): SlotRow {
    const key = `${accountId}\u0000${endpoint}`;
    let row = this.rows.get(key);
    if (!row) {
      row = { tat: -Infinity, pausedUntil: -Infinity };
      this.rows.set(key, row);
    }
    return row;
  }
}

/** Slot spacing for a rate: whole microseconds, rounded up so the rate is never above it. */
export function stepMicrosFor(perMinute: number): number {
  if (!(perMinute > 0)) throw new RangeError('a rate budget needs a positive rate');
  return Math.max(1, Math.ceil(60_000_000 / perMinute));
}
