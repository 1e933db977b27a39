/**
 * The sandbox clock: real time plus an offset that tests move forward. Everything time-based
 * (token expiry, the 30-minute rule, day rollover, pending resolution, the 25 s hang) reads it,
 * so a test advances the clock instead of sleeping.
 */
interface Waiter {
  readonly at: number;
  readonly resolve: () => void;
  timer: NodeJS.Timeout | undefined;
}

export class SandboxClock {
  private offsetMs = 0;
  private readonly waiters = new Set<Waiter>();
  private readonly children = new Set<SandboxClock>();

  constructor(private readonly realNow: () => number = Date.now) {}

  /** A clock at this one's time plus an offset of its own (a merchant's): moving either moves it. */
  child(): SandboxClock {
    const c = new SandboxClock(() => this.now());
    this.children.add(c);
    return c;
  }

  /** How far this clock was moved itself (its parent's moves not counted). */
  get offset(): number {
    return this.offsetMs;
  }

  now(): number {
    return this.realNow() + this.offsetMs;
  }

  advance(ms: number): number {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError('advance takes a non-negative duration');
    this.offsetMs += ms;
    this.wake();
    return this.now();
  }

  /** Resolves once the sandbox clock reaches now + ms: by real time passing or by `advance`. */
  sleep(ms: number): Promise<void> {
    if (ms <= 0) return Promise.resolve();
    return new Promise((resolve) => {
      const waiter: Waiter = { at: this.now() + ms, resolve, timer: undefined };
      this.waiters.add(waiter);
      this.arm(waiter);
    });
  }

  /** Releases every sleeper (used on close so nothing keeps the process alive). */
  releaseAll(): void {
    for (const w of this.waiters) this.finish(w);
    for (const c of this.children) c.releaseAll();
  }

  private arm(w: Waiter): void {
    const remaining = w.at - this.now();
    if (remaining <= 0) {
      this.finish(w);
      return;
    }
    w.timer = setTimeout(() => this.arm(w), Math.min(remaining, 2 ** 31 - 1));
    w.timer.unref();
  }

  private wake(): void {
    const now = this.now();
    for (const w of this.waiters) if (w.at <= now) this.finish(w);
    for (const c of this.children) c.wake();
  }

  private finish(w: Waiter): void {
    if (!this.waiters.delete(w)) return;
    if (w.timer) clearTimeout(w.timer);
    w.resolve();
  }
}

const IST_OFFSET_MS = 330 * 60_000;

/** `2021-11-24 13:39:25` in India time, the legacy status format. */
export function legacyDate(ms: number): string {
  return new Date(ms + IST_OFFSET_MS).toISOString().slice(0, 19).replace('T', ' ');
}

/** `2021-11-24T13:39:25` in India time, the v2 format (no zone). */
export function v2Date(ms: number): string {
  return new Date(ms + IST_OFFSET_MS).toISOString().slice(0, 19);
}

/** v2 Transfers and Beneficiary dates: ISO-8601 UTC with `Z`, whole seconds (2021-11-24T13:39:25Z). */
export function isoUtc(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 19)}Z`;
}

/** `yyyy-mm-dd` of the India calendar day holding `ms`. */
export function istDay(ms: number): string {
  return new Date(ms + IST_OFFSET_MS).toISOString().slice(0, 10);
}

/** Milliseconds at 00:00 India time of a `yyyy-mm-dd` day. */
export function istDayStart(day: string): number {
  return Date.parse(`${day}T00:00:00.000Z`) - IST_OFFSET_MS;
}

export const NOT_PROCESSED = '0000-00-00 00:00:00';
