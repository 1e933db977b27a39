import { type EndpointId } from './settings.js';

/**
 * A fault injected on one endpoint (or '*'). Applied by the route wrapper, in this order:
 * burst429, reset, latencyMs, hang, httpStatus, subCode520, then loseAnswer after the handler ran.
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
  /** How many requests the fault applies to; unlimited when absent. */
  readonly times?: number;
}

export class FaultRegistry {
  private readonly faults: { spec: FaultSpec; left: number }[] = [];

  add(spec: FaultSpec): void {
    this.faults.push({ spec, left: spec.times ?? spec.burst429 ?? Number.POSITIVE_INFINITY });
  }

  /** The fault for this request, consuming one use; undefined when none applies. */
  take(endpoint: EndpointId): FaultSpec | undefined {
    if (this.faults.length === 0) return undefined;
    const i = this.faults.findIndex((f) => f.spec.endpoint === endpoint || f.spec.endpoint === '*');
    if (i < 0) return undefined;
    const f = this.faults[i];
    if (!f) return undefined;
    f.left -= 1;
    if (f.left <= 0) this.faults.splice(i, 1);
    return f.spec;
  }

  list(): FaultSpec[] {
    return this.faults.map((f) => f.spec);
  }

  clear(endpoint?: string): void {
    for (let i = this.faults.length - 1; i >= 0; i -= 1) {
      if (endpoint === undefined || this.faults[i]?.spec.endpoint === endpoint) this.faults.splice(i, 1);
    }
  }
}
