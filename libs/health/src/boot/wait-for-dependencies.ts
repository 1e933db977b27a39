import { setTimeout as sleep } from 'node:timers/promises';
import { type Dependency } from './dependency-probe.js';

export interface BootWaitSettings {
  /** BOOT_DEPENDENCY_TIMEOUT_MS: the whole wait, every dependency at once. */
  readonly timeoutMs: number;
  /** The first pause between attempts; doubles per attempt up to maxDelayMs. */
  readonly firstDelayMs?: number;
  readonly maxDelayMs?: number;
  /** A SIGTERM during the wait: stop looking and answer `aborted`. */
  readonly signal?: AbortSignal;
  /** Each failed attempt, once (the caller logs it and shows it on /health/ready). */
  onAttempt(a: {
    readonly dependency: string;
    readonly target: string;
    readonly attempt: number;
    readonly reason: string;
    readonly retryInMs: number | undefined;
  }): void;
  /** A dependency answered: it leaves /health/ready's list. */
  onUp?(dependency: string): void;
  readonly now?: () => number;
}

export interface BootWaitProblem {
  readonly dependency: string;
  /** The variable to fix when misconfigured. */
  readonly variable?: string;
  readonly reason: string;
  readonly attempts: number;
}

export type BootWaitResult =
  | { readonly outcome: 'up' }
  | { readonly outcome: 'aborted' }
  /** A dependency answered and refused us: exit 78 (EX_CONFIG) at once. */
  | { readonly outcome: 'misconfigured'; readonly problems: readonly BootWaitProblem[] }
  /** Still unreachable when the wait ran out: exit 69 (EX_UNAVAILABLE). */
  | { readonly outcome: 'unavailable'; readonly problems: readonly BootWaitProblem[] };

/**
 * Looks at every dependency side by side until all answer, backing off (0.5 s, 1 s, 2 s ... 10 s:
 * about ten log lines a minute each, not seven a second), for at most `timeoutMs`. A refusal that
 * waiting cannot cure ends the wait at once.
 */
export async function waitForDependencies(
  dependencies: readonly Dependency[],
  s: BootWaitSettings,
): Promise<BootWaitResult> {
  const now = s.now ?? Date.now;
  const deadline = now() + s.timeoutMs;
  const first = s.firstDelayMs ?? 500;
  const max = s.maxDelayMs ?? 10_000;
  const stop = new AbortController();
  const signal = s.signal ? AbortSignal.any([s.signal, stop.signal]) : stop.signal;
  const misconfigured: BootWaitProblem[] = [];
  const unavailable: BootWaitProblem[] = [];

  const watch = async (d: Dependency): Promise<void> => {
    let delay = first;
    for (let attempt = 1; ; attempt++) {
      const r = await d.probe();
      if (signal.aborted) return;
      if (r.state === 'up') {
        s.onUp?.(d.name);
        return;
      }
      if (r.state === 'misconfigured') {
        misconfigured.push({ dependency: d.name, variable: r.variable, reason: r.reason, attempts: attempt });
        stop.abort();
        return;
      }
      const left = deadline - now();
      const retryInMs = left > 0 ? Math.min(delay, left) : undefined;
      s.onAttempt({ dependency: d.name, target: d.target, attempt, reason: r.reason, retryInMs });
      if (retryInMs === undefined) {
        unavailable.push({ dependency: d.name, reason: r.reason, attempts: attempt });
        return;
      }
      try {
        await sleep(retryInMs, undefined, { signal });
      } catch {
        return; // aborted
      }
      delay = Math.min(delay * 2, max);
    }
  };

  await Promise.all(dependencies.map(watch));
  if (misconfigured.length > 0) return { outcome: 'misconfigured', problems: misconfigured };
  if (s.signal?.aborted) return { outcome: 'aborted' };
  if (unavailable.length > 0) return { outcome: 'unavailable', problems: unavailable };
  return { outcome: 'up' };
}
