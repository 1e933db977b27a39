/*
 * The shared rate budget's view of the store's clock (split out of shared-rate-budget.ts, issue 31):
 * each reservation reads the store's clock somewhere inside its round trip, and the readings of the
 * last few seconds narrow where the store's clock stands against the local one.
 */

/**
 * One reservation's clocks: the store's clock read `clockMs`, somewhere between `sentAt` and
 * `answeredAt` on the local clock, so the offset (store − local) lies within
 * [clockMs − answeredAt, clockMs − sentAt].
 */
interface ClockSample {
  readonly lo: number;
  readonly hi: number;
  readonly at: number;
}

/** How long a reservation's clock reading is kept to narrow the store-to-local clock offset. */
const CLOCK_SAMPLE_MS = 5_000;
const CLOCK_SAMPLES = 32;
/**
 * How fast the two clocks may drift apart (the store's wall clock, on another host, slewed by NTP
 * at up to 500 ppm, against the local monotonic one): an older reading's bounds widen by this much
 * per ms of its age (2.5 ms at most over the 5 s kept), so readings a few seconds apart do not
 * contradict each other and throw the estimate back to the last round trip alone.
 */
const CLOCK_DRIFT = 0.0005;

/** The store-to-local clock offset, as bounds narrowed by the recent reservations' readings. */
export class StoreClockOffset {
  private samples: ClockSample[] = [];

  /**
   * The offset of the store's clock to the local one (store − local), as bounds: this answer's
   * (its round trip) intersected with the recent ones'. If they disagree (a clock stepped), the
   * older readings are dropped.
   */
  offset(clockMs: number, sentAt: number, answeredAt: number): { lo: number; hi: number } {
    const s: ClockSample = { lo: clockMs - answeredAt, hi: clockMs - sentAt, at: answeredAt };
    this.samples = this.samples
      .filter((x) => x.at >= answeredAt - CLOCK_SAMPLE_MS)
      .slice(-(CLOCK_SAMPLES - 1));
    this.samples.push(s);
    let lo = -Infinity;
    let hi = Infinity;
    for (const x of this.samples) {
      const drift = (answeredAt - x.at) * CLOCK_DRIFT;
      lo = Math.max(lo, x.lo - drift);
      hi = Math.min(hi, x.hi + drift);
    }
    if (lo > hi) {
      this.samples = [s];
      return { lo: s.lo, hi: s.hi };
    }
    return { lo, hi };
  }
}
