import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { type RateBudgetMetrics } from '../metrics/rate-budget-metrics.js';
import { burstSlots, DELIVERY_ALLOWANCE_MS, type RateBudgetKey, type RateGrant } from './rate-budget.js';
import { MemoryRateBudget } from './memory-rate-budget.js';
import { TokenBucket } from '../transport/token-bucket.js';
import { SharedRateBudget, type BudgetClock } from './shared-rate-budget.js';
import {
  grantSlots,
  MemorySlotStore,
  stepMicrosFor,
  type RateSlotStore,
  type SlotRequest,
} from './slot-store.js';

/** A clock whose time moves only when the test says; timers run in time order. */
class FakeClock implements BudgetClock {
  t = 0;
  private seq = 0;
  private readonly timers = new Map<number, { at: number; fn: () => void }>();

  now(): number {
    return this.t;
  }
  setTimeout(fn: () => void, ms: number): unknown {
    const id = ++this.seq;
    this.timers.set(id, { at: this.t + Math.max(0, ms), fn });
    return id;
  }
  clearTimeout(h: unknown): void {
    this.timers.delete(h as number);
  }
  defer(fn: () => void): void {
    this.setTimeout(fn, 0);
  }

  /** Time passes while the process cannot run: timers due meanwhile fire late, at once. */
  stall(ms: number): void {
    this.t += ms;
  }

  /** Runs every timer due up to now + ms, letting promises settle after each. */
  async advance(ms: number): Promise<void> {
    const until = this.t + ms;
    for (;;) {
      await settle();
      let next: [number, { at: number; fn: () => void }] | undefined;
      for (const e of this.timers) if (e[1].at <= until && (!next || e[1].at < next[1].at)) next = e;
      if (!next) break;
      this.timers.delete(next[0]);
      this.t = Math.max(this.t, next[1].at);
      next[1].fn();
    }
    this.t = until;
    await settle();
  }
}

const settle = async () => {
  for (let i = 0; i < 5; i += 1) await new Promise((r) => setImmediate(r));
};

/** The shared store, answering after `latencyMs` (of the fake clock), and failing when told. */
class LatentStore implements RateSlotStore {
  readonly inner: MemorySlotStore;
  failing = false;
  calls = 0;
  constructor(
    private readonly clock: FakeClock,
    /** The round trip, in ms: a figure, or drawn per reservation (a slow statement on a loaded box). */
    private readonly latencyMs: number | (() => number) = 1,
    /** The row store, shared by stores with different round trips (two instances). */
    inner?: MemorySlotStore,
  ) {
    this.inner = inner ?? new MemorySlotStore(() => clock.now());
  }
  /** The slots this store granted, on the store's clock (a burst's: the clock's reading). */
  readonly granted: number[] = [];
  reserve(r: SlotRequest) {
    this.calls += 1;
    const g = this.failing
      ? undefined
      : this.inner.reserve(r).then((x) => {
          for (let i = 0; i < x.granted; i += 1)
            this.granted.push(x.clockMs + Math.max(0, x.firstInMs + (i * r.stepMicros) / 1000));
          return x;
        });
    return new Promise<Awaited<ReturnType<RateSlotStore['reserve']>>>((resolve, reject) => {
      this.clock.setTimeout(
        () => (g ? void g.then(resolve) : reject(new Error('connect ECONNREFUSED'))),
        typeof this.latencyMs === 'number' ? this.latencyMs : this.latencyMs(),
      );
    });
  }
  pause(accountId: string, endpoint: string, ms: number) {
    return this.inner.pause(accountId, endpoint, ms);
  }
}

class CountingMetrics implements RateBudgetMetrics {
  readonly results: Record<string, number> = { granted: 0, empty: 0, error: 0 };
  granted = 0;
  lost = 0;
  reservation(result: 'granted' | 'empty' | 'error', slots: number): void {
    this.results[result] = (this.results[result] ?? 0) + 1;
    this.granted += slots;
  }
  slotsLost(n: number): void {
    this.lost += n;
  }
}

const KEY: RateBudgetKey = { accountId: 'acc-1', endpoint: 'directTransfer', rateClass: 'transfer' };

/** A seeded generator, so the instances' turns are the same every run. */
function lcg(seed: number): () => number {
  let x = seed;
  return () => {
    x = (x * 1_103_515_245 + 12_345) % 2 ** 31;
    return x / 2 ** 31;
  };
}

let seed = 1;
function budget(clock: FakeClock, store: RateSlotStore, perMinute = 6000, metrics = new CountingMetrics()) {
  return new SharedRateBudget(
    { perMinuteFor: () => perMinute, blockMs: 100, horizonMs: 200 },
    { store, clock, metrics, random: lcg(seed++) },
  );
}

/** Asks `n` times at once; records when each grant arrives (fake time). */
function ask(b: SharedRateBudget, clock: FakeClock, n: number, maxWaitMs = 60_000) {
  const times: number[] = [];
  const grants: RateGrant[] = [];
  for (let i = 0; i < n; i += 1) {
    void b.acquire(KEY, maxWaitMs).then((g) => {
      grants.push(g);
      if (g.ok) times.push(clock.now());
    });
  }
  return { times, grants };
}

describe('grantSlots (the model of rateBudget.take)', () => {
  it('starts at now when idle, books a block step apart, and stops at the horizon', () => {
    const row = { tat: -Infinity, pausedUntil: -Infinity };
    const r = {
      accountId: 'a',
      endpoint: 'e',
      wanted: 5,
      stepMicros: 10_000,
      horizonMs: 25,
      toleranceMicros: 0,
    };
    assert.deepEqual(grantSlots(row, r, 1000), { granted: 3, firstInMs: 0, nextInMs: 30, clockMs: 1000 });
    assert.equal(row.tat, 1030);
    assert.deepEqual(grantSlots(row, r, 1000), { granted: 0, firstInMs: 30, nextInMs: 30, clockMs: 1000 });
    assert.deepEqual(grantSlots(row, r, 1010), { granted: 1, firstInMs: 20, nextInMs: 30, clockMs: 1010 });
    // Idle for a while: with no tolerance, the past is not a credit (no burst).
    assert.deepEqual(grantSlots(row, { ...r, wanted: 100, horizonMs: 0 }, 5000), {
      granted: 1,
      firstInMs: 0,
      nextInMs: 10,
      clockMs: 5000,
    });
  });

  it('starts after a pause', () => {
    const row = { tat: 0, pausedUntil: 2000 };
    const r = {
      accountId: 'a',
      endpoint: 'e',
      wanted: 2,
      stepMicros: 10_000,
      horizonMs: 100,
      toleranceMicros: 0,
    };
    assert.deepEqual(grantSlots(row, r, 1000), {
      granted: 0,
      firstInMs: 1000,
      nextInMs: 1000,
      clockMs: 1000,
    });
    assert.deepEqual(grantSlots(row, r, 1950), { granted: 2, firstInMs: 50, nextInMs: 70, clockMs: 1950 });
  });

  it('spaces slots by whole microseconds, rounded up (never above the rate)', () => {
    assert.equal(stepMicrosFor(9000), 6667);
    assert.equal(stepMicrosFor(8910), 6735);
    assert.ok(60_000_000 / stepMicrosFor(8910) <= 8910);
    assert.throws(() => stepMicrosFor(0), RangeError);
  });
});

describe('SharedRateBudget', () => {
  it('idle: one caller costs one reservation and sends at once', async () => {
    const clock = new FakeClock();
    const store = new LatentStore(clock, 1);
    const b = budget(clock, store);
    const { times, grants } = ask(b, clock, 1);
    await clock.advance(5);
    assert.equal(grants.length, 1);
    assert.deepEqual(times, [1], 'granted as soon as the reservation answered');
    assert.equal(store.calls, 1);
  });

  it('two instances on one store: sends never closer than the step, at the full rate, in blocks', async () => {
    const clock = new FakeClock();
    const store = new LatentStore(clock, 2);
    const metrics = [new CountingMetrics(), new CountingMetrics()];
    const [a, b] = [budget(clock, store, 6000, metrics[0]), budget(clock, store, 6000, metrics[1])]; // 10 ms step
    const ra = ask(a, clock, 300);
    const rb = ask(b, clock, 300);
    await clock.advance(3_000);
    const all = [...ra.times, ...rb.times].sort((x, y) => x - y);
    assert.ok(all.length >= 290, `sent ${all.length} in 3 s at 100/s`);
    assert.ok(all.length <= 301, `sent ${all.length}: over the rate`);
    for (let i = 1; i < all.length; i += 1) {
      assert.ok(
        all[i]! - all[i - 1]! >= 10 - 1e-9,
        `sends ${i - 1} and ${i} ${all[i]! - all[i - 1]!} ms apart`,
      );
    }
    // Each instance's turns are random; neither is starved.
    assert.ok(
      ra.times.length > 75 && rb.times.length > 75,
      `both sent (${ra.times.length} / ${rb.times.length})`,
    );
    assert.ok(store.calls * 3 < all.length, `${store.calls} reservations for ${all.length} sends`);
    await clock.advance(4_000);
    assert.equal(ra.times.length + rb.times.length, 600, 'everyone sent in the end');
    assert.equal(metrics[0]!.lost + metrics[1]!.lost, 0, 'no slot lost while callers wait');
    assert.equal(metrics[0]!.granted + metrics[1]!.granted, 600);
  });

  it('a slot that passed while the process could not run is lost, not sent late with the next ones', async () => {
    const clock = new FakeClock();
    const store = new LatentStore(clock, 1);
    const metrics = new CountingMetrics();
    const b = budget(clock, store, 6000, metrics); // 10 ms step
    const r = ask(b, clock, 200);
    await clock.advance(300);
    clock.stall(400);
    await clock.advance(1_500);
    assert.ok(metrics.lost > 0, 'slots lost in the stall');
    // No send is more than 100 ms after its slot: any second holds at most 110 sends (+1).
    const t = r.times;
    for (let i = 0, j = 0; i < t.length; i += 1) {
      while (t[i]! - t[j]! >= 1000) j += 1;
      assert.ok(i - j + 1 <= 111, `${i - j + 1} sends within a second ending at ${t[i]}`);
    }
    await clock.advance(3_000);
    assert.equal(r.times.length, 200, 'the callers whose slots were lost are served later');
  });

  it("a slow answer's slots are placed on the store's clock: sent at their time, or lost if passed, never late", async () => {
    // Two instances on one row; A's answers take 300 ms every other time (a statement queued on a
    // loaded box), B's 1 ms. Timed from the answer's arrival, a slow answer's block went out
    // 300 ms after its slots, onto the slots booked after it (B's).
    const clock = new FakeClock();
    const inner = new MemorySlotStore(() => clock.now());
    let n = 0;
    const storeA = new LatentStore(clock, () => (n++ % 2 === 1 ? 300 : 1), inner);
    const storeB = new LatentStore(clock, 1, inner);
    const metrics = new CountingMetrics();
    const a = budget(clock, storeA, 6000, metrics);
    const b = budget(clock, storeB);
    const ra = ask(a, clock, 400);
    const rb = ask(b, clock, 400);
    await clock.advance(30_000);
    assert.equal(ra.times.length + rb.times.length, 800, 'everyone sent in the end');
    // Each instance hands out its slots in order: every send is at or after its slot and at most
    // lateMs (100) after it; slots that passed are skipped (lost).
    for (const [times, store] of [
      [ra.times, storeA],
      [rb.times, storeB],
    ] as const) {
      let p = 0;
      for (const t of times) {
        while (p < store.granted.length && store.granted[p]! < t - 100) p += 1;
        assert.ok(
          p < store.granted.length && store.granted[p]! <= t,
          `a send at ${t} ms has no slot within 100 ms before it`,
        );
        p += 1;
      }
    }
    assert.ok(metrics.lost > 0, "the slow answers' passed slots are counted lost");
    assert.ok(maxInWindow([...ra.times, ...rb.times], 1_000) <= 111, 'at most 111 in any second');
  });

  it('a store a long round trip away (150 ms, more than lateMs) still gets the sends out', async () => {
    // The offset can be known no better than the round trip: strictly "at most 100 ms late on the
    // store's clock", no slot could ever be used. Each slot keeps half of lateMs after the latest
    // time it can be, so the bound's lateness grows by the round trip for such a store.
    const clock = new FakeClock();
    const store = new LatentStore(clock, 150);
    const metrics = new CountingMetrics();
    const b = budget(clock, store, 6000, metrics);
    const r = ask(b, clock, 50);
    await clock.advance(5_000);
    assert.equal(r.times.length, 50, `${r.times.length} of 50 sent; ${metrics.lost} slots lost`);
    for (let i = 1; i < r.times.length; i += 1)
      assert.ok(r.times[i]! - r.times[i - 1]! >= 10 - 1e-9, `sends ${i - 1}, ${i} closer than the step`);
  });

  it('a pause reaches the other instance: its next slots come after it', async () => {
    const clock = new FakeClock();
    const store = new LatentStore(clock, 1);
    const [a, b] = [budget(clock, store), budget(clock, store)];
    ask(a, clock, 1);
    await clock.advance(5);
    a.pause(KEY, 1000);
    await clock.advance(1);
    const rb = ask(b, clock, 3);
    await clock.advance(900);
    assert.deepEqual(rb.times, [], 'nothing during the pause');
    await clock.advance(200);
    assert.equal(rb.times.length, 3);
    assert.ok(rb.times[0]! >= 1005, `first send at ${rb.times[0]}`);
  });

  it('store unreachable: the waiting callers are refused (retry-safe), nothing is granted', async () => {
    const clock = new FakeClock();
    const store = new LatentStore(clock, 1);
    const metrics = new CountingMetrics();
    const b = budget(clock, store, 6000, metrics);
    store.failing = true;
    const r = ask(b, clock, 4);
    await clock.advance(10);
    assert.equal(r.times.length, 0);
    assert.deepEqual(
      r.grants.map((g) => (g.ok ? 'ok' : g.reason)),
      ['unavailable', 'unavailable', 'unavailable', 'unavailable'],
    );
    assert.equal(metrics.results['error'], 1);
    store.failing = false;
    const again = ask(b, clock, 1);
    await clock.advance(10);
    assert.equal(again.times.length, 1, 'served again once the store answers');
  });

  it('refuses at once a caller who would wait too long even with the budget to itself', async () => {
    const clock = new FakeClock();
    const store = new LatentStore(clock, 1);
    const b = budget(clock, store, 60); // one per second
    const r = ask(b, clock, 5, 2_500);
    await clock.advance(0);
    assert.deepEqual(
      r.grants.map((g) => (g.ok ? 'ok' : g.reason)),
      ['wait-too-long', 'wait-too-long'],
      'the 4th and 5th are refused before any reservation',
    );
    await clock.advance(5_000);
    assert.equal(r.times.length, 3);
  });

  it('a caller whose slot would come after its deadline is refused then, booking nothing more', async () => {
    const clock = new FakeClock();
    const store = new LatentStore(clock, 1);
    const a = budget(clock, store, 60);
    const b = budget(clock, store, 60);
    ask(a, clock, 3); // a books the first slot; the next is a second later
    await clock.advance(1);
    const rb = ask(b, clock, 1, 500);
    await clock.advance(2_000);
    assert.deepEqual(
      rb.grants.map((g) => (g.ok ? 'ok' : g.reason)),
      ['wait-too-long'],
    );
  });

  it('a wait cap of 0 still sends when the slot is free (the statement is not counted as waiting)', async () => {
    const clock = new FakeClock();
    const store = new LatentStore(clock, 20);
    const b = budget(clock, store, 60);
    const r = ask(b, clock, 1, 0);
    await clock.advance(30);
    assert.deepEqual(r.times, [20]);
    const late = ask(b, clock, 1, 0);
    await clock.advance(2_000);
    assert.deepEqual(
      late.grants.map((g) => (g.ok ? 'ok' : g.reason)),
      ['wait-too-long'],
      'the next slot is a second away',
    );
  });

  it('close refuses whoever still waits, and closes the store', async () => {
    const clock = new FakeClock();
    const store = new LatentStore(clock, 1);
    let closedStore = 0;
    const b = new SharedRateBudget(
      { perMinuteFor: () => 60, blockMs: 100, horizonMs: 200 },
      { store, clock, onClose: async () => void (closedStore += 1) },
    );
    const r = ask(b, clock, 3);
    await clock.advance(2);
    await b.close();
    await b.close();
    assert.equal(closedStore, 1, "the store's connections are closed once");
    await clock.advance(1);
    assert.equal(r.grants.filter((g) => !g.ok && g.reason === 'unavailable').length, 2);
    assert.deepEqual(await b.acquire(KEY, 1000), { ok: false, reason: 'unavailable' });
  });
});

/** The most sends in any window of `windowMs` (sliding, so every fixed window the provider counts is covered). */
function maxInWindow(times: readonly number[], windowMs: number): number {
  const t = [...times].sort((x, y) => x - y);
  let most = 0;
  for (let i = 0, j = 0; i < t.length; i += 1) {
    while (t[i]! - t[j]! >= windowMs) j += 1;
    most = Math.max(most, i - j + 1);
  }
  return most;
}

/**
 * Target fractions that leave room for the lateness in a 10 s window (up to 0.98): at 0.99 or 1 the
 * rate alone fills such a window, the burst is 1 (none), and lateness can cost a send or two; that
 * is what the fraction is for (the integration test takes 0.95 for a 10 s window).
 */
const FRACTIONS = fc.oneof(fc.constantFrom(0.9, 0.95, 0.98), fc.double({ min: 0.5, max: 0.98, noNaN: true }));

/** The delivery allowance the property draws each send's transit from (up to it, never more). */
const DELIVERY_MS = DELIVERY_ALLOWANCE_MS;

/**
 * Two shared instances under random traffic (bursts after idle, saturation, taking turns, process
 * stalls): no window of the provider's length (10 s, 1,100 at 6,600/min) holds more than its limit,
 * counted when the sends reach the provider (`deliveryMs` after each grant).
 */
async function windowProperty(o: {
  latencyMs: () => number;
  deliveryMs: () => number;
  fractions?: fc.Arbitrary<number>;
}): Promise<void> {
  const LIMIT = 6600;
  const WINDOW = 10_000;
  await fc.assert(
    fc.asyncProperty(
      o.fractions ?? FRACTIONS,
      fc.array(
        fc.record({
          // Now and then idle for longer than a window: the burst is back.
          gapMs: fc.oneof(fc.integer({ min: 0, max: 3_000 }), fc.constant(15_000)),
          n: fc.integer({ min: 1, max: 600 }),
          instance: fc.integer({ min: 0, max: 1 }),
          stallMs: fc.constantFrom(0, 0, 0, 50, 150, 400),
        }),
        { minLength: 1, maxLength: 10 },
      ),
      async (fraction, events) => {
        const clock = new FakeClock();
        const store = new LatentStore(clock, o.latencyMs);
        const settings = {
          perMinuteFor: () => LIMIT * fraction,
          limitPerMinuteFor: () => LIMIT,
          windowMs: WINDOW,
          blockMs: 100,
          horizonMs: 300,
        };
        const budgets = [0, 1].map(
          (i) => new SharedRateBudget(settings, { store, clock, random: lcg(11 + i) }),
        );
        const asked: number[][] = [];
        for (const e of events) {
          await clock.advance(e.gapMs);
          asked.push(ask(budgets[e.instance]!, clock, e.n).times);
          if (e.stallMs > 0) {
            // The process cannot run for a while: slots due meanwhile are lost or sent late.
            await clock.advance(5);
            clock.stall(e.stallMs);
          }
        }
        await clock.advance(60_000);
        const all = asked.flat();
        assert.equal(
          all.length,
          events.reduce((n, e) => n + e.n, 0),
          'everyone sent in the end',
        );
        const most = maxInWindow(
          all.map((t) => t + o.deliveryMs()),
          WINDOW,
        );
        assert.ok(most <= (LIMIT * WINDOW) / 60_000, `${most} sends in one ${WINDOW} ms window`);
      },
    ),
    { numRuns: 40 },
  );
}

describe('burst allowance (GCRA tolerance)', () => {
  it('burstSlots: as many at once as keep every window at or under the limit', () => {
    // 9,000/min at 0.99 (step rounded up to 6,735 us), 100 ms late on the store's clock at most,
    // + 400 ms delivery.
    assert.equal(burstSlots({ limitPerMinute: 9000, stepMs: 6.735, windowMs: 60_000, lateMs: 500 }), 17);
    // With 120 ms (session 11: 100 ms + 20 ms round trip, no delivery), 73: a burst arriving
    // about 170 ms late is enough for the bench's 9,007 in one 60 s.
    assert.equal(burstSlots({ limitPerMinute: 9000, stepMs: 6.735, windowMs: 60_000, lateMs: 120 }), 73);
    // A punctual client: the (1 - fraction) x limit of the brief, 90.
    assert.equal(
      burstSlots({ limitPerMinute: 9000, stepMs: 60_000 / 8910, windowMs: 60_000, lateMs: 0 }),
      90,
    );
    // The bench's 600,000/min: thousands.
    assert.equal(
      burstSlots({ limitPerMinute: 600_000, stepMs: 0.102, windowMs: 60_000, lateMs: 500 }),
      6_862,
    );
    // A 10 s window at 600/min and 0.95 (the integration test's): no room left for a burst, 1.
    assert.equal(burstSlots({ limitPerMinute: 600, stepMs: 60_000 / 570, windowMs: 10_000, lateMs: 500 }), 1);
    // No room: at least one (the rate itself is the promise).
    assert.equal(burstSlots({ limitPerMinute: 600, stepMs: 100, windowMs: 60_000, lateMs: 500 }), 1);
  });

  it('shared: a burst after idle gets its tolerance at once, then the slots are spaced at the rate', async () => {
    const clock = new FakeClock();
    const store = new LatentStore(clock, 1);
    // Limit 6,600/min, target 6,000 (10 ms step), a 10 s window: 1,100 per window.
    const settings = {
      perMinuteFor: () => 6000,
      limitPerMinuteFor: () => 6600,
      windowMs: 10_000,
      blockMs: 100,
      horizonMs: 200,
    };
    const burst = burstSlots({ limitPerMinute: 6600, stepMs: 10, windowMs: 10_000, lateMs: 500 });
    assert.equal(burst, 50);
    const b = new SharedRateBudget(settings, { store, clock, random: lcg(7) });
    await clock.advance(60_000); // idle
    const r = ask(b, clock, 150);
    await clock.advance(3_000);
    assert.equal(r.times.length, 150);
    const t0 = 60_000;
    // 50 at once: 5 reservations of a block of 10, 1 ms each.
    assert.ok(
      r.times[burst - 1]! - t0 <= 15,
      `the ${burst}th sent ${r.times[burst - 1]! - t0} ms after asking`,
    );
    // After it, the slots are a step apart (the first of them is a step after the burst's last slot).
    for (let i = burst + 1; i < r.times.length; i += 1)
      assert.ok(r.times[i]! - r.times[i - 1]! >= 10 - 1e-9, `sends ${i - 1}, ${i} closer than the step`);
    // Idle again for long enough: the tolerance is back.
    await clock.advance(20_000);
    const again = ask(b, clock, burst);
    await clock.advance(20);
    assert.equal(again.times.length, burst, 'a second burst after idle, at once');
  });

  it('a burst that reaches the provider late (up to the delivery allowance) keeps every window at the limit', async () => {
    // The bench's 9,007 in one 60 s: the burst after idle went out over new connections and
    // reached the sandbox 420-450 ms late, so a window starting after it held the burst and a
    // full window of the rate. Here: 6,600/min in 10 s windows (1,100), 0.9 of it, one instance
    // saturated for 15 s after idle; what it sent in the first 400 ms (the burst and the slots
    // after it) all arrives 400 ms after the first send, the rest at once. With 120 ms allowed for
    // lateness (the burst 98), 1,125 in one window.
    const clock = new FakeClock();
    const store = new LatentStore(clock, 1);
    const settings = {
      perMinuteFor: () => 6600 * 0.9,
      limitPerMinuteFor: () => 6600,
      windowMs: 10_000,
      blockMs: 100,
      horizonMs: 300,
    };
    const b = new SharedRateBudget(settings, { store, clock, random: lcg(3) });
    await clock.advance(60_000);
    const r = ask(b, clock, 1_500);
    await clock.advance(20_000);
    assert.equal(r.times.length, 1_500);
    const t0 = r.times[0]!;
    // Everything sent in the first DELIVERY_ALLOWANCE_MS arrives together at its end.
    const arrived = r.times.map((t) => Math.max(t, t0 + DELIVERY_ALLOWANCE_MS));
    const most = maxInWindow(arrived, 10_000);
    assert.ok(most <= 1_100, `${most} sends in one 10 s window`);
  });

  it('memory: the bucket holds the same burst, and it is there at once after idle', async () => {
    let t = 0;
    const bucket = new TokenBucket(
      6000,
      () => t,
      burstSlots({ limitPerMinute: 6600, stepMs: 10, windowMs: 10_000, lateMs: 100 }),
    );
    const waits = Array.from({ length: 100 }, () => bucket.reserve(60_000)!);
    assert.equal(waits.filter((w) => w === 0).length, 90, 'the burst: 90 at once');
    assert.deepEqual(waits.slice(90, 93), [10, 20, 30]);
    t = 60_000;
    assert.equal(Array.from({ length: 90 }, () => bucket.reserve(0)).filter((w) => w === 0).length, 90);
    // The MemoryRateBudget builds its buckets with that capacity.
    const m = new MemoryRateBudget(
      () => 6000,
      () => t,
      { limitPerMinuteFor: () => 6600, windowMs: 10_000 },
    );
    const grants = await Promise.all(Array.from({ length: 51 }, () => m.acquire(KEY, 0)));
    assert.equal(
      grants.filter((g) => g.ok).length,
      50,
      'its burst counts the delivery allowance too (500 ms): the 51st would wait, refused with a cap of 0',
    );
  });

  // Any traffic (bursts after idle, saturation, two instances taking turns, the process stalled
  // now and then): no window of the provider's length ever holds more than its limit.
  it("property: no window of the provider's length exceeds the limit (shared, two instances)", async () => {
    await windowProperty({ latencyMs: () => 1, deliveryMs: () => 0 });
  });

  // The same with the reservation's round trip slow now and then (a statement queued on a loaded
  // box: up to 600 ms measured in the bench) and each send reaching the provider up to the
  // delivery allowance after it left. Before the slots were placed on the store's clock (they were
  // timed from the answer's arrival), a slow answer shifted its whole block late, onto the other
  // instance's slots.
  it('property: slow reservations and late delivery do not push a window over the limit (shared)', async () => {
    const rnd = lcg(5);
    await windowProperty({
      // Room in a 10 s window for the delivery allowance: up to 0.95 (0.98 leaves 204 ms).
      fractions: fc.double({ min: 0.5, max: 0.95, noNaN: true }),
      latencyMs: () => (rnd() < 0.25 ? rnd() * 600 : 1 + rnd() * 5),
      deliveryMs: () => rnd() * DELIVERY_MS,
    });
  });

  it("property: no window of the provider's length exceeds the limit (memory bucket, sends up to 100 ms late)", () => {
    const LIMIT = 6600;
    const WINDOW = 10_000;
    fc.assert(
      fc.property(
        FRACTIONS,
        fc.array(
          fc.record({
            gapMs: fc.oneof(fc.integer({ min: 0, max: 3_000 }), fc.constant(15_000)),
            n: fc.integer({ min: 1, max: 600 }),
            lateMs: fc.integer({ min: 0, max: 100 }),
          }),
          { minLength: 1, maxLength: 10 },
        ),
        (fraction, events) => {
          let t = 0;
          const perMinute = LIMIT * fraction;
          const capacity = burstSlots({
            limitPerMinute: LIMIT,
            stepMs: 60_000 / perMinute,
            windowMs: WINDOW,
            lateMs: 100,
          });
          const bucket = new TokenBucket(perMinute, () => t, capacity);
          const sends: number[] = [];
          for (const e of events) {
            t += e.gapMs;
            for (let i = 0; i < e.n; i += 1) sends.push(t + bucket.reserve(Infinity)! + e.lateMs);
          }
          const most = maxInWindow(sends, WINDOW);
          assert.ok(most <= (LIMIT * WINDOW) / 60_000, `${most} sends in one ${WINDOW} ms window`);
        },
      ),
      { numRuns: 200 },
    );
  });
});
