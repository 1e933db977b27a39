/**
 * What the run asked of its chaos and what it saw happen (issue 29: "the chaos run can pass
 * without chaos"). A step that did not happen is a failed run, not a log line: a SIGKILL counts
 * when it was delivered to a live pid and the process was then seen gone; a broker or Postgres
 * restart when the server was seen down (its port refused a connection) and then up again
 * (Postgres: a new postmaster start time); provider faults when the sandbox reports its random
 * mode on as asked and the number it injected is what the rate makes likely.
 */

export type StepKind = 'kill' | 'broker' | 'postgres' | 'rolling';

/** One chaos step the run tried: whether it happened, and what was seen (or why not). */
export interface StepRecord {
  readonly step: StepKind;
  readonly happened: boolean;
  readonly detail: string;
}

/** The sandbox's own account of its random fault mode for one merchant (`GET /__sandbox/fault-mode`). */
export interface FaultView {
  readonly account: string;
  /** The mode as the sandbox holds it when read (null: off). */
  readonly mode: { readonly rate: number; readonly kinds: readonly string[] } | null;
  /** Calls random mode drew for (initiations), and what it injected, by kind. */
  readonly calls: number;
  readonly injected: Readonly<Record<string, number>>;
  /** In-doubt faults the sandbox applied anyway (the issue-29 sandbox reports it; absent before). */
  readonly appliedInDoubt?: number;
}

export interface ChaosAsked {
  readonly kill: number;
  readonly broker: number;
  readonly postgres: number;
  readonly rolling: number;
  /** The random fault rate asked of every merchant (0: none). */
  readonly faultRate: number;
  /** The share of in-doubt faults asked to apply the transfer anyway (0: none). */
  readonly inDoubtApply?: number;
}

/** The random fault kinds that answer before applying: the ones `inDoubtApply` may apply. */
export const IN_DOUBT_KINDS = ['http5xx', 'subCode520', 'hang'];

/**
 * Expected injections per fault kind at which a kind that was never injected is a failure (the
 * sandbox's generator is seeded: the chance of none at this many is about e^-10 per kind).
 */
export const KIND_EXPECTED_MIN = 10;
/** Standard deviations the number injected may fall short of rate x calls (binomial). */
export const FAULT_SD = 5;

/** Every way the chaos asked for did not happen; empty when all of it did. */
export function chaosNotHappened(
  asked: ChaosAsked,
  steps: readonly StepRecord[],
  faults: readonly FaultView[],
): string[] {
  const out: string[] = [];
  for (const kind of ['kill', 'broker', 'postgres', 'rolling'] as const) {
    const mine = steps.filter((s) => s.step === kind);
    const happened = mine.filter((s) => s.happened).length;
    if (happened < asked[kind]) {
      const why = mine
        .filter((s) => !s.happened)
        .slice(0, 3)
        .map((s) => s.detail);
      const tried = mine.length < asked[kind] ? `; ${asked[kind] - mine.length} never tried` : '';
      out.push(
        `${kind}: asked ${asked[kind]}, happened ${happened}${why.length ? ` (${why.join('; ')})` : ''}${tried}`,
      );
    }
  }
  if (asked.faultRate > 0) {
    for (const f of faults) {
      if (!f.mode) {
        out.push(
          `faults ${f.account}: the sandbox reports random fault mode off (asked rate ${asked.faultRate})`,
        );
        continue;
      }
      if (f.mode.rate !== asked.faultRate) {
        out.push(`faults ${f.account}: the sandbox holds rate ${f.mode.rate}, asked ${asked.faultRate}`);
      }
      const injected = Object.values(f.injected).reduce((a, b) => a + b, 0);
      if (f.calls === 0) {
        out.push(`faults ${f.account}: no initiation reached the fault mode`);
        continue;
      }
      const expected = f.calls * asked.faultRate;
      const sd = Math.sqrt(f.calls * asked.faultRate * (1 - asked.faultRate));
      const least = Math.floor(expected - FAULT_SD * sd);
      if (injected < Math.max(1, least)) {
        out.push(
          `faults ${f.account}: ${injected} injected of ${f.calls} initiations, at least ${Math.max(1, least)} expected at rate ${asked.faultRate}`,
        );
      }
      const inDoubt = IN_DOUBT_KINDS.reduce((n, k) => n + (f.injected[k] ?? 0), 0);
      const share = asked.inDoubtApply ?? 0;
      if (share > 0 && inDoubt * share >= KIND_EXPECTED_MIN && !(f.appliedInDoubt ?? 0)) {
        out.push(
          `faults ${f.account}: no in-doubt fault applied the transfer (${inDoubt} injected, share ${share} asked${f.appliedInDoubt === undefined ? '; the sandbox does not report appliedInDoubt' : ''})`,
        );
      }
      const perKind = expected / Math.max(1, f.mode.kinds.length);
      if (perKind >= KIND_EXPECTED_MIN) {
        const never = f.mode.kinds.filter((k) => (f.injected[k] ?? 0) === 0);
        if (never.length > 0) {
          out.push(
            `faults ${f.account}: never injected ${never.join(', ')} (about ${perKind.toFixed(0)} of each expected)`,
          );
        }
      }
    }
  }
  return out;
}

/** The figure shown beside the check: asked and happened per step, faults per account. */
export function chaosHappenedSummary(
  asked: ChaosAsked,
  steps: readonly StepRecord[],
  faults: readonly FaultView[],
): string {
  const n = (kind: StepKind) => steps.filter((s) => s.step === kind && s.happened).length;
  const injected = faults.reduce((a, f) => a + Object.values(f.injected).reduce((x, y) => x + y, 0), 0);
  const calls = faults.reduce((a, f) => a + f.calls, 0);
  return (
    `SIGKILLs ${n('kill')} of ${asked.kill}, broker restarts ${n('broker')} of ${asked.broker}, ` +
    `Postgres restarts ${n('postgres')} of ${asked.postgres}, rolling restarts ${n('rolling')} of ${asked.rolling}, ` +
    `faults ${injected} of ${calls} initiations (rate ${asked.faultRate})`
  );
}
