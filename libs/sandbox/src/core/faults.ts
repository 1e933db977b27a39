import { type EndpointId } from './settings.js';

/**
 * A fault injected on one endpoint (or '*'). Applied by the route wrapper, in this order:
 * burst429, reset, latencyMs, hang, httpStatus, subCode520, then (after the handler ran)
 * loseAnswer, applyThenStatus or applyThenLatencyMs.
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
  /** How many requests the fault applies to; unlimited when absent. */
  readonly times?: number;
}

/** The faults random mode draws from (each as likely as the others). */
export const RANDOM_FAULT_KINDS = [
  'loseAnswer',
  'applyThen5xx',
  'http5xx',
  'subCode520',
  'hang',
  'applyThenLate',
] as const;
export type RandomFaultKind = (typeof RANDOM_FAULT_KINDS)[number];

/** Money-moving endpoints: where random mode injects faults unless told otherwise. */
export const INITIATION_ENDPOINTS: readonly EndpointId[] = [
  'directTransfer',
  'requestTransfer',
  'requestBatchTransfer',
  'internalTransfer',
  'selfWithdrawal',
  'cardpay',
  'v2Transfer',
];

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

function specOf(kind: RandomFaultKind, endpoint: EndpointId, lateMs: number): FaultSpec {
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
  }
}

export class FaultRegistry {
  private readonly faults: { spec: FaultSpec; left: number }[] = [];
  private random: { mode: RandomFaultMode; next: () => number } | undefined;
  private calls = 0;
  private readonly injected = new Map<RandomFaultKind, number>();

  add(spec: FaultSpec): void {
    this.faults.push({ spec, left: spec.times ?? spec.burst429 ?? Number.POSITIVE_INFINITY });
  }

  /** The fault for this request, consuming one use; undefined when none applies. */
  take(endpoint: EndpointId): FaultSpec | undefined {
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
    return specOf(kind, endpoint, r.mode.lateMs);
  }

  setRandom(mode: RandomFaultMode | undefined): void {
    this.random = mode ? { mode, next: seeded(mode.seed) } : undefined;
    this.calls = 0;
    this.injected.clear();
  }

  /** Random mode's settings and what it has injected so far. */
  randomView(): { mode: RandomFaultMode | null; calls: number; injected: Record<string, number> } {
    return {
      mode: this.random?.mode ?? null,
      calls: this.calls,
      injected: Object.fromEntries(this.injected),
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
