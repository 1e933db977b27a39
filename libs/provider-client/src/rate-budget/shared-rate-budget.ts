import { type RateClass } from '../core/endpoint-adapter.js';
import { type ProviderClientLogger } from '../call-recorder.js';
import { noopRateBudgetMetrics, type RateBudgetMetrics } from '../metrics/rate-budget-metrics.js';
import {
  burstSlots,
  DELIVERY_ALLOWANCE_MS,
  type RateBudget,
  type RateBudgetKey,
  type RateGrant,
} from './rate-budget.js';
import { stepMicrosFor, type RateSlotStore } from './slot-store.js';
import { StoreClockOffset } from './store-clock-offset.js';

export interface SharedRateBudgetSettings {
  /** The rate to aim for per class, in calls per minute (the provider's limit times a fraction). */
  readonly perMinuteFor: (rateClass: RateClass) => number;
  /**
   * The most one reservation covers, in time at the full rate: under load one statement books
   * about this much (e.g. 100 ms = 15 transfers at 9,000/min); idle, it books one slot.
   */
  readonly blockMs: number;
  /**
   * How far ahead of the store's clock a slot may be booked. Keeps the shared TAT close to real
   * time, so a pause reaches every instance within about this long and an instance that dies
   * loses at most this much of the budget. At least one block.
   */
  readonly horizonMs: number;
  /**
   * How late after its slot (on the store's clock) a send may still be handed to the transport
   * (default 100 ms). A caller whose slot came and went while this process could not run (a long
   * GC, a starved CPU, a slow reservation) takes a new one instead: sent late, the backlog would
   * go out together and crowd one of the provider's windows.
   */
  readonly lateMs?: number;
  /**
   * How long after it leaves a send may reach the provider and still be counted in the bound
   * (default `DELIVERY_ALLOWANCE_MS`, 400 ms): the burst leaves room for it.
   */
  readonly deliveryMs?: number;
  /**
   * The provider's published limit per class (calls per minute), for the burst allowance: after
   * idle, as many sends go at once as keep any window of `windowMs` at or under it (`burstSlots`).
   * Unset: no burst, every send spaced at the target rate.
   */
  readonly limitPerMinuteFor?: (rateClass: RateClass) => number;
  /** The provider's counting window (default a minute). */
  readonly windowMs?: number;
}

/** Local time and timers; injectable so the scheduling can be tested without waiting. */
export interface BudgetClock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  /** Runs `fn` after the current burst of callers (setImmediate), so one block serves them all. */
  defer(fn: () => void): void;
}

export const realBudgetClock: BudgetClock = {
  now: () => performance.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout),
  defer: (fn) => void setImmediate(fn),
};

export interface SharedRateBudgetDeps {
  readonly store: RateSlotStore;
  readonly metrics?: RateBudgetMetrics;
  readonly logger?: ProviderClientLogger;
  readonly clock?: BudgetClock;
  /** [0, 1); jitters when a waiting instance asks again, so instances take turns. */
  readonly random?: () => number;
  /** Called once by close(), after the waiting callers are refused (e.g. ends the store's pool). */
  readonly onClose?: () => Promise<void>;
}

/** A reserved slot on the local clock: sent no earlier than `at`, and no later than `by`. */
interface Slot {
  readonly at: number;
  readonly by: number;
}

interface Waiter {
  readonly askedAt: number;
  readonly deadline: number;
  readonly resolve: (g: RateGrant) => void;
  timer: unknown;
}

/** One (account, endpoint): callers in order, the slots this instance holds, its view of the row. */
interface Lane {
  readonly key: RateBudgetKey;
  readonly stepMicros: number;
  readonly stepMs: number;
  /** GCRA's tolerance: (burst − 1) steps, in whole microseconds. */
  readonly toleranceMicros: number;
  /** Slots per reservation at most: a block. */
  readonly blockSlots: number;
  readonly waiters: Waiter[];
  /** Reserved, not yet handed out, ascending. */
  slots: Slot[];
  pausedUntil: number;
  /** Local estimate of the row's next free slot, from the last answer. */
  nextFree: number;
  reserving: boolean;
  timer: unknown;
  /** The last pause sent to the store: a reservation waits for it, so it sees the pause. */
  pausing: Promise<void>;
}

const UNAVAILABLE: RateGrant = { ok: false, reason: 'unavailable' };
const TOO_LONG: RateGrant = { ok: false, reason: 'wait-too-long' };
const LOG_EVERY_MS = 10_000;
/** How long a reservation's statement may take on top of a caller's wait cap (maxWaitMs 0 still works). */
const ROUND_TRIP_GRACE_MS = 250;

/**
 * A rate budget every instance on an account shares: slots are reserved from a store (one
 * statement reserves a block of them, on the store's clock) and handed to this instance's callers
 * in order, each sent at its slot's time.
 *
 * - A reservation asks for as many slots as callers are waiting, up to a block, and only as far
 *   as the horizon: idle, one caller costs one statement and no wait; saturated, one statement
 *   serves a block, and the instances take turns (a random delay) as room opens.
 * - A slot nobody takes is lost, not given back (a caller that gave up, a pause, a slot that
 *   passed while the process could not run): the account sends a little under its limit then,
 *   never over. No send is more than `lateMs` after its slot, so any window of the provider's
 *   sees at most the rate times (window + lateMs).
 * - The store unreachable: the callers waiting are refused (`unavailable`, retry-safe, nothing
 *   sent); nothing is sent without a slot.
 * - A pause (429) is written to the store, so every instance's next reservation starts after it;
 *   slots this instance holds inside it are dropped.
 */
export class SharedRateBudget implements RateBudget {
  private readonly lanes = new Map<string, Lane>();
  private readonly clock: BudgetClock;
  private readonly metrics: RateBudgetMetrics;
  private readonly random: () => number;
  private readonly jitterMs: number;
  private readonly lateMs: number;
  private readonly deliveryMs: number;
  /** Recent reservations' bounds on the store's clock less the local one (see `offset`). */
  private readonly storeClock = new StoreClockOffset();
  private closed = false;
  private lastLogAt = -Infinity;

  constructor(
    private readonly settings: SharedRateBudgetSettings,
    private readonly deps: SharedRateBudgetDeps,
  ) {
    this.clock = deps.clock ?? realBudgetClock;
    this.metrics = deps.metrics ?? noopRateBudgetMetrics;
    this.random = deps.random ?? Math.random;
    this.jitterMs = Math.max(0, Math.min(settings.blockMs, settings.horizonMs - settings.blockMs)) / 2;
    this.lateMs = settings.lateMs ?? 100;
    this.deliveryMs = settings.deliveryMs ?? DELIVERY_ALLOWANCE_MS;
  }

  acquire(key: RateBudgetKey, maxWaitMs: number): Promise<RateGrant> {
    if (this.closed) return Promise.resolve(UNAVAILABLE);
    const lane = this.lane(key);
    const now = this.clock.now();
    // Even with the whole budget to itself, this caller would wait for everyone ahead of it.
    const earliest = Math.max(now, lane.pausedUntil) + lane.waiters.length * lane.stepMs;
    if (earliest - now > maxWaitMs) return Promise.resolve(TOO_LONG);
    return new Promise<RateGrant>((resolve) => {
      // The cap is on the wait for the slot: the reservation's own round trip is not counted.
      const deadline = now + maxWaitMs + ROUND_TRIP_GRACE_MS;
      const w: Waiter = { askedAt: now, deadline, resolve, timer: undefined };
      this.armDeadline(lane, w, deadline - now);
      lane.waiters.push(w);
      this.pump(lane);
    });
  }

  pause(key: RateBudgetKey, ms: number): void {
    if (this.closed) return;
    const lane = this.lane(key);
    lane.pausedUntil = Math.max(lane.pausedUntil, this.clock.now() + ms);
    const kept = lane.slots.filter((s) => s.at >= lane.pausedUntil);
    if (kept.length < lane.slots.length) this.metrics.slotsLost(lane.slots.length - kept.length);
    lane.slots = kept;
    lane.pausing = lane.pausing
      .then(() => this.deps.store.pause(key.accountId, key.endpoint, ms))
      .catch((e: unknown) =>
        this.warn(e, 'rate budget: recording a pause failed; this instance still pauses'),
      );
    this.pump(lane);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const lane of this.lanes.values()) {
      if (lane.timer !== undefined) this.clock.clearTimeout(lane.timer);
      lane.timer = undefined;
      this.refuseAll(lane, UNAVAILABLE);
    }
    await this.deps.onClose?.();
  }

  private lane(key: RateBudgetKey): Lane {
    const id = `${key.accountId}\u0000${key.endpoint}`;
    let lane = this.lanes.get(id);
    if (!lane) {
      const stepMicros = stepMicrosFor(this.settings.perMinuteFor(key.rateClass));
      const stepMs = stepMicros / 1000;
      const limit = this.settings.limitPerMinuteFor?.(key.rateClass);
      const burst =
        limit === undefined
          ? 1
          : burstSlots({
              limitPerMinute: limit,
              stepMs,
              windowMs: this.settings.windowMs ?? 60_000,
              lateMs: this.lateMs + this.deliveryMs,
            });
      lane = {
        key,
        stepMicros,
        stepMs,
        toleranceMicros: (burst - 1) * stepMicros,
        blockSlots: Math.max(1, Math.floor(this.settings.blockMs / stepMs)),
        waiters: [],
        slots: [],
        pausedUntil: -Infinity,
        nextFree: -Infinity,
        reserving: false,
        timer: undefined,
        pausing: Promise.resolve(),
      };
      this.lanes.set(id, lane);
    }
    return lane;
  }

  /** Hands out held slots in order, drops stale ones, and reserves more when callers still wait. */
  private pump(lane: Lane): void {
    const now = this.clock.now();
    while (lane.waiters.length > 0 && lane.slots.length > 0) {
      const slot = lane.slots[0]!;
      const w = lane.waiters.shift()!;
      this.clock.clearTimeout(w.timer);
      if (slot.at > w.deadline) {
        w.resolve(TOO_LONG);
        continue;
      }
      lane.slots.shift();
      this.release(lane, w, slot, now);
    }
    // A slot used long after its time would crowd the next ones: past by a step (or too late to
    // be sent at all), it is lost.
    let stale = 0;
    while (lane.slots.length > 0 && (lane.slots[0]!.at < now - lane.stepMs || lane.slots[0]!.by < now)) {
      lane.slots.shift();
      stale += 1;
    }
    if (stale > 0) this.metrics.slotsLost(stale);
    if (lane.waiters.length === 0 || lane.reserving || this.closed) return;
    const wanted = Math.min(lane.waiters.length, lane.blockSlots);
    // Room for the block opens when its last slot comes within the horizon.
    const roomAt =
      Math.max(lane.nextFree, lane.pausedUntil) + (wanted - 1) * lane.stepMs - this.settings.horizonMs;
    if (roomAt > now) {
      if (lane.timer === undefined) {
        // Instances waiting for the same room would otherwise ask in the same order every time,
        // and the one that answered first would win every block. A random delay takes turns; the
        // shared TAT stays ahead of the clock by the horizon less the block, more than the jitter.
        const jitter = this.random() * this.jitterMs;
        lane.timer = this.clock.setTimeout(
          () => {
            lane.timer = undefined;
            this.pump(lane);
          },
          Math.ceil(roomAt - now + jitter),
        );
      }
      return;
    }
    lane.reserving = true;
    this.clock.defer(() => void this.reserve(lane));
  }

  private async reserve(lane: Lane): Promise<void> {
    const wanted = Math.min(lane.waiters.length, lane.blockSlots);
    try {
      if (wanted === 0 || this.closed) return;
      await lane.pausing;
      const sentAt = this.clock.now();
      const g = await this.deps.store.reserve({
        accountId: lane.key.accountId,
        endpoint: lane.key.endpoint,
        wanted,
        stepMicros: lane.stepMicros,
        horizonMs: this.settings.horizonMs,
        toleranceMicros: lane.toleranceMicros,
      });
      // The store read its clock between sentAt and now: the offset of its clock to ours lies
      // within [lo, hi], narrowed by the recent reservations (the fastest round trip bounds it).
      const { lo, hi } = this.storeClock.offset(g.clockMs, sentAt, this.clock.now());
      lane.nextFree = g.clockMs + g.nextInMs - lo;
      this.metrics.reservation(g.granted > 0 ? 'granted' : 'empty', g.granted);
      let lost = 0;
      for (let i = 0; i < g.granted; i += 1) {
        // A slot before the store's clock (the burst) is due at the clock's reading, not before.
        const slot = g.clockMs + Math.max(0, g.firstInMs + i * lane.stepMs);
        // Never before the slot, whichever the offset; never more than lateMs after it, whichever
        // the offset: a slow answer's slots that passed meanwhile are lost, not sent late. Unless
        // the offset is known no better than lateMs / 2 (a store every round trip of which is that
        // slow): then a slot still has lateMs / 2 after the latest time it can be, or none could
        // ever be used; the bound's lateness grows by the round trip.
        const s: Slot = {
          at: slot - lo,
          by: Math.max(slot - hi + this.lateMs, slot - lo + this.lateMs / 2),
        };
        if (s.at < lane.pausedUntil || s.by < s.at) lost += 1;
        else lane.slots.push(s);
      }
      if (lost > 0) this.metrics.slotsLost(lost);
    } catch (e) {
      this.metrics.reservation('error', 0);
      this.warn(e, 'rate budget: reservation failed; waiting calls refused as retry-safe (not sent)');
      this.refuseAll(lane, UNAVAILABLE);
    } finally {
      lane.reserving = false;
    }
    if (!this.closed) this.pump(lane);
  }

  private release(lane: Lane, w: Waiter, slot: Slot, now: number): void {
    const go = () => {
      const t = this.clock.now();
      if (t <= slot.by) {
        w.resolve({
          ok: true,
          waitedMs: t - w.askedAt,
          // The caller checks again just before it sends (an await for headers may come between).
          onTime: () => {
            if (this.clock.now() <= slot.by) return true;
            this.metrics.slotsLost(1);
            return false;
          },
        });
        return;
      }
      // The slot passed while this process could not run: sent now, it would go out with the
      // slots after it, over the rate. It is lost; the caller queues again, first in line.
      this.metrics.slotsLost(1);
      const left = w.deadline - t;
      if (this.closed) w.resolve(UNAVAILABLE);
      else if (left <= 0) w.resolve(TOO_LONG);
      else {
        this.armDeadline(lane, w, left);
        lane.waiters.unshift(w);
        this.pump(lane);
      }
    };
    if (slot.at <= now) go();
    else this.clock.setTimeout(go, Math.ceil(slot.at - now));
  }

  /** Refuses `w` (too long) after `ms` unless it has been given a slot by then. */
  private armDeadline(lane: Lane, w: Waiter, ms: number): void {
    w.timer = this.clock.setTimeout(() => {
      const i = lane.waiters.indexOf(w);
      if (i < 0) return;
      lane.waiters.splice(i, 1);
      w.resolve(TOO_LONG);
    }, ms);
  }

  private refuseAll(lane: Lane, g: RateGrant): void {
    for (const w of lane.waiters.splice(0)) {
      this.clock.clearTimeout(w.timer);
      w.resolve(g);
    }
  }

  private warn(e: unknown, msg: string): void {
    const now = this.clock.now();
    if (now - this.lastLogAt < LOG_EVERY_MS) return;
    this.lastLogAt = now;
    const err = e instanceof Error ? { name: e.name, message: e.message } : { message: String(e) };
    this.deps.logger?.warn({ err }, msg);
  }
}
