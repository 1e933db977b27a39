/*
 * The public webhook listener's guards against floods (issue 21, finding 7): refused deliveries
 * are limited per source address, and their warn lines sampled. Both are in memory, per process:
 * they protect this process's logs and time, nothing that must hold across instances.
 */

/**
 * At most one line per key and interval: the first is written at once, the ones after it are
 * counted, and the next line (once the interval has passed) says how many were left out.
 */
export class LogSampler {
  private readonly last = new Map<string, { at: number; suppressed: number }>();

  constructor(
    private readonly intervalMs: number,
    private readonly now: () => number = Date.now,
    /** Keys kept at most (the oldest is forgotten first): a bound on memory, not a limit on lines. */
    private readonly maxKeys = 1_000,
  ) {}

  /** The number of lines left out since the last one written, or undefined to leave this one out. */
  take(key: string): number | undefined {
    const now = this.now();
    const seen = this.last.get(key);
    if (seen && now - seen.at < this.intervalMs) {
      seen.suppressed += 1;
      return undefined;
    }
    this.last.delete(key);
    if (this.last.size >= this.maxKeys) this.forgetOldest();
    this.last.set(key, { at: now, suppressed: 0 });
    return seen?.suppressed ?? 0;
  }

  private forgetOldest(): void {
    const oldest = this.last.keys().next();
    if (!oldest.done) this.last.delete(oldest.value);
  }
}

/**
 * Refused deliveries per source address in a fixed window. Only refusals count, and a delivery is
 * verified before it is limited (see webhooks-server.ts): a genuine provider delivery always
 * verifies, so an attacker (from another address, or from the same proxy) cannot starve it.
 */
export class RefusalLimiter {
  private readonly windows = new Map<string, { start: number; refused: number }>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
    private readonly maxSources = 10_000,
  ) {}

  /** Seconds until this source may be refused normally again; 0 while it is under the limit. */
  retryAfterSeconds(source: string): number {
    const w = this.current(source);
    if (!w || w.refused < this.limit) return 0;
    return Math.max(1, Math.ceil((w.start + this.windowMs - this.now()) / 1000));
  }

  /** Counts one refusal of this source. */
  refused(source: string): void {
    const w = this.current(source);
    if (w) {
      w.refused += 1;
      return;
    }
    if (this.windows.size >= this.maxSources) this.prune();
    this.windows.set(source, { start: this.now(), refused: 1 });
  }

  private current(source: string): { start: number; refused: number } | undefined {
    const w = this.windows.get(source);
    if (w && this.now() - w.start >= this.windowMs) {
      this.windows.delete(source);
      return undefined;
    }
    return w;
  }

  /** Drops ended windows; if every window is current (a spread attack), the oldest half. */
  private prune(): void {
    const now = this.now();
    for (const [k, w] of this.windows) if (now - w.start >= this.windowMs) this.windows.delete(k);
    if (this.windows.size < this.maxSources) return;
    let drop = Math.ceil(this.windows.size / 2);
    for (const k of this.windows.keys()) {
      if (drop-- <= 0) break;
      this.windows.delete(k);
    }
  }
}

/**
 * The source a limit is kept for: the peer address, with an IPv6 address cut to its /64 (one
 * host usually has the whole /64, and would otherwise get a fresh budget per address).
 */
export function sourceKey(address: string | undefined): string {
  if (!address) return 'unknown';
  const v4 = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (v4?.[1]) return v4[1];
  if (!address.includes(':')) return address;
  const [head = ''] = address.split('%');
  const parts = expandV6(head);
  return parts ? `${parts.slice(0, 4).join(':')}::/64` : head;
}

function expandV6(a: string): string[] | undefined {
  const halves = a.split('::');
  if (halves.length > 2) return undefined;
  const left = halves[0] ? halves[0].split(':') : [];
  const right = halves.length === 2 && halves[1] ? halves[1].split(':') : [];
  const fill = halves.length === 2 ? 8 - left.length - right.length : 0;
  const parts = [...left, ...Array<string>(Math.max(0, fill)).fill('0'), ...right];
  return parts.length === 8 ? parts.map((p) => p.toLowerCase().replace(/^0+(?=.)/, '')) : undefined;
}
