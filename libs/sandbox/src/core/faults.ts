import { type EndpointId } from './settings.js';

/** How a re-send of a transferId the sandbox already has is refused (`refuseResend`). */
export const RESEND_REFUSALS = ['insufficient_balance', 'duplicate', 'not_found'] as const;
export type ResendRefusal = (typeof RESEND_REFUSALS)[number];

/**
 * A fault injected on one endpoint (or '*'). Applied by the route wrapper, in this order:
 * burst429, reset, latencyMs, hang, httpStatus, subCode520, applyLaterMs, refuseResend, then
 * (after the handler ran) statusLagMs and refuseResend marks, loseAnswer, applyThenStatus or
 * applyThenLatencyMs.
 */
export interface FaultSpec {
  readonly endpoint: EndpointId | '*';
  /** Delay before answering, on the sandbox clock (advancing the clock releases it). */
  readonly latencyMs?: number;
  /** Never answer; the connection stays open until the client gives up. */
  readonly hang?: boolean;
  /** Answer with this 5xx status and a generic error body. */
  readonly httpStatus?: number;
  /** Answer with the endpoint's 520 row (legacy) without touching state; a row key picks one. */
  readonly subCode520?: boolean | string;
  /** Destroy the socket before doing anything. */
  readonly reset?: boolean;
  /** The next N requests get 429. */
  readonly burst429?: number;
  /** Apply the state change, then lose the answer: destroy the socket or never answer. */
  readonly loseAnswer?: 'reset' | 'hang';
  /** Apply the state change, then answer this 5xx status with a generic error body. */
  readonly applyThenStatus?: number;
  /** Apply the state change, then hold the real answer this long (sandbox clock). */
  readonly applyThenLatencyMs?: number;
  /**
   * The call gets no useful answer (`applyLaterAnswer`) and the request is applied this long
   * later on the sandbox clock (advancing the clock releases it). Until then the transfer does
   * not exist. Where the provider deduplicates the id, whichever of the late apply and a re-send
   * is applied first wins and the other is refused as a repeat; internal transfers and self
   * withdrawals are not deduplicated, so a late apply after a re-send pays again.
   */
  readonly applyLaterMs?: number;
  /** What the caller of an `applyLaterMs` request gets: no answer ('hang', the default), a reset, or this 5xx. */
  readonly applyLaterAnswer?: 'hang' | 'reset' | number;
  /**
   * On an initiation: the transfer (or batch) this request applies is "not found" on the status
   * endpoints until this long (sandbox clock) after it was applied. On a status endpoint: this
   * call answers "not found" for a transfer applied less than this long ago.
   */
  readonly statusLagMs?: number;
  /**
   * A re-send of an id the sandbox already has is refused with this answer instead of "Transfer
   * Id already exists", and nothing is applied. On a call that re-sends a known id it refuses that
   * call; on a call that applies a new id it marks the id, so every later re-send is refused so.
   */
  readonly refuseResend?: ResendRefusal;
  /** How many requests the fault applies to; unlimited when absent. */
  readonly times?: number;
  /**
   * In-doubt faults that answer before the request is applied (`reset`, `hang`, `httpStatus`,
   * `subCode520`) apply it first with this probability (0..1, default 0), drawn from the
   * registry's seeded generator: a transfer answered 520 may then have been paid.
   */
  readonly applyRate?: number;
  /** Set when an in-doubt fault applied the request: the answer is then the 520 row (a row key picks one). */
  readonly applyThen520?: boolean | string;
}

/** The in-doubt fault `spec` as it acts once the request was applied first; undefined when it has no such form. */
export function appliedForm(spec: FaultSpec): FaultSpec | undefined {
  const { reset, hang, httpStatus, subCode520, ...rest } = spec;
  if (reset) return { ...rest, loseAnswer: 'reset' };
  if (hang) return { ...rest, loseAnswer: 'hang' };
  if (httpStatus !== undefined) return { ...rest, applyThenStatus: httpStatus };
  if (subCode520 !== undefined && subCode520 !== false) return { ...rest, applyThen520: subCode520 };
  return undefined;
}

/** The seed of the in-doubt apply draws of explicit faults (random mode draws from its own seed). */
const APPLY_SEED = 29;

/** A request the sandbox will apply later (`applyLaterMs`); listed by the control API. */
export interface LateApply {
  readonly endpoint: EndpointId;
  readonly id: string;
  /** Sandbox clock: when it arrived and when it will be applied. */
  readonly receivedAt: number;
  readonly at: number;
}

/**
 * The faults random mode draws from (each as likely as the others). The last three model a
 * provider that is slower or less consistent than it claims: `applyLater` (no answer, applied
 * later: `lateApplyMs`), `statusLag` (applied, answer lost, "not found" on the status endpoints
 * for `lagMs`) and `refuseResend` (as `statusLag`, and a re-send is refused with one of
 * `refusals`): the paths where a service that believes one signal publishes a wrong FAILED.
 */
export const RANDOM_FAULT_KINDS = [
  'loseAnswer',
  'applyThen5xx',
  'http5xx',
  'subCode520',
  'hang',
  'applyThenLate',
  'applyLater',
  'statusLag',
  'refuseResend',
] as const;
export type RandomFaultKind = (typeof RANDOM_FAULT_KINDS)[number];

/**
 * Random mode: a share of the calls to some endpoints get one of the faults, drawn from a seeded
 * generator so a run can be repeated. Explicit faults are served first.
 */
export interface RandomFaultMode {
  /** Share of calls that get a fault, 0..1. */
  readonly rate: number;
  readonly seed: number;
  readonly endpoints: readonly EndpointId[];
  readonly kinds: readonly RandomFaultKind[];
  /** Delay of `applyThenLate` answers (sandbox clock). */
  readonly lateMs: number;
  /** `applyLater`: applied after a delay drawn evenly from this range (sandbox clock). */
  readonly lateApplyMs: { readonly min: number; readonly max: number };
  /** `applyLater`: what the caller gets meanwhile. */
  readonly lateApplyAnswer: 'hang' | 'reset' | number;
  /** `statusLag` and `refuseResend`: how long the status endpoints say "not found". */
  readonly lagMs: number;
  /** `refuseResend`: the refusals drawn from (each as likely). */
  readonly refusals: readonly ResendRefusal[];
  /**
   * Share of in-doubt faults (`loseAnswer`-free kinds that answer before applying: http5xx,
   * subCode520, hang) that apply the request first (0..1; 0 keeps them never applied).
   */
  readonly applyRate?: number;
}

/** mulberry32: small, fast, and the same sequence for the same seed (the chaos run's generator too). */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function specOf(
  kind: RandomFaultKind,
  endpoint: EndpointId,
  mode: RandomFaultMode,
  next: () => number,
): FaultSpec {
  const { lateMs, lateApplyMs, lagMs } = mode;
  switch (kind) {
    case 'loseAnswer':
      return { endpoint, loseAnswer: 'reset' };
    case 'applyThen5xx':
      return { endpoint, applyThenStatus: 503 };
    case 'http5xx':
      return { endpoint, httpStatus: 502 };
    case 'subCode520':
      return { endpoint, subCode520: true };
    case 'hang':
      return { endpoint, hang: true };
    case 'applyThenLate':
      return { endpoint, applyThenLatencyMs: lateMs };
    case 'applyLater': {
      const span = Math.max(0, lateApplyMs.max - lateApplyMs.min);
      const applyLaterMs = lateApplyMs.min + Math.floor(next() * (span + 1));
      return { endpoint, applyLaterMs, applyLaterAnswer: mode.lateApplyAnswer };
    }
    case 'statusLag':
      return { endpoint, loseAnswer: 'reset', statusLagMs: lagMs };
    case 'refuseResend': {
      const refusal = mode.refusals[Math.floor(next() * mode.refusals.length)] ?? 'insufficient_balance';
      return { endpoint, loseAnswer: 'reset', statusLagMs: lagMs, refuseResend: refusal };
    }
  }
}

/** Random mode's defaults for the settings a caller leaves out. */
export const RANDOM_DEFAULTS = {
  lateMs: 10_000,
  lateApplyMs: { min: 5_000, max: 30_000 },
  lateApplyAnswer: 'reset',
  lagMs: 10_000,
  refusals: RESEND_REFUSALS,
} as const satisfies Partial<RandomFaultMode>;

export class FaultRegistry {
  private readonly faults: { spec: FaultSpec; left: number }[] = [];
  private random: { mode: RandomFaultMode; next: () => number } | undefined;
  private calls = 0;
  private readonly injected = new Map<RandomFaultKind, number>();
  /** Decides whether an in-doubt fault applies the request first (its own sequence: the faults drawn stay the same). */
  private applyDraw = seeded(APPLY_SEED);
  private appliedInDoubt = 0;

  add(spec: FaultSpec): void {
    this.faults.push({ spec, left: spec.times ?? spec.burst429 ?? Number.POSITIVE_INFINITY });
  }

  /** The fault for this request, consuming one use; undefined when none applies. */
  take(endpoint: EndpointId): FaultSpec | undefined {
    const spec = this.pick(endpoint);
    if (!spec) return undefined;
    // An explicit fault without its own rate takes random mode's (0 without random mode).
    const rate = spec.applyRate ?? this.random?.mode.applyRate ?? 0;
    if (rate <= 0) return spec;
    const applied = appliedForm(spec);
    if (!applied || this.applyDraw() >= rate) return spec;
    this.appliedInDoubt += 1;
    return applied;
  }

  private pick(endpoint: EndpointId): FaultSpec | undefined {
    if (this.faults.length === 0) return this.draw(endpoint);
    const i = this.faults.findIndex((f) => f.spec.endpoint === endpoint || f.spec.endpoint === '*');
    if (i < 0) return this.draw(endpoint);
    const f = this.faults[i];
    if (!f) return undefined;
    f.left -= 1;
    if (f.left <= 0) this.faults.splice(i, 1);
    return f.spec;
  }

  private draw(endpoint: EndpointId): FaultSpec | undefined {
    const r = this.random;
    if (!r || !r.mode.endpoints.includes(endpoint)) return undefined;
    this.calls += 1;
    if (r.next() >= r.mode.rate) return undefined;
    const kind = r.mode.kinds[Math.floor(r.next() * r.mode.kinds.length)];
    if (kind === undefined) return undefined;
    this.injected.set(kind, (this.injected.get(kind) ?? 0) + 1);
    return specOf(kind, endpoint, r.mode, r.next);
  }

  setRandom(mode: RandomFaultMode | undefined): void {
    this.random = mode ? { mode, next: seeded(mode.seed) } : undefined;
    this.applyDraw = seeded(mode ? (mode.seed ^ 0x2929) >>> 0 : APPLY_SEED);
    this.appliedInDoubt = 0;
    this.calls = 0;
    this.injected.clear();
  }

  /** Random mode's settings and what it has injected so far. */
  randomView(): {
    mode: RandomFaultMode | null;
    calls: number;
    injected: Record<string, number>;
    appliedInDoubt: number;
  } {
    return {
      mode: this.random?.mode ?? null,
      calls: this.calls,
      injected: Object.fromEntries(this.injected),
      // In-doubt faults (explicit or random) that applied the request before answering.
      appliedInDoubt: this.appliedInDoubt,
    };
  }

  list(): FaultSpec[] {
    return this.faults.map((f) => f.spec);
  }

  /** Clears explicit faults (of one endpoint, or all); clearing all also ends random mode. */
  clear(endpoint?: string): void {
    for (let i = this.faults.length - 1; i >= 0; i -= 1) {
      if (endpoint === undefined || this.faults[i]?.spec.endpoint === endpoint) this.faults.splice(i, 1);
    }
    if (endpoint === undefined) this.setRandom(undefined);
  }
}
