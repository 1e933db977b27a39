import { type ProviderResult } from './core/outcome.js';
import { type EndpointName } from './endpoints/adapter-registry.js';

/**
 * Reads the service can do without (the balance, issue 32): read on a schedule, not for a payout.
 * A refusal of one ("APIs not enabled" for Get Balance on an account that never had it) shows where
 * it is used (the funds view's reading keeps its time, its failures are counted), not in readiness:
 * it must not take an instance that pays out normally out of service. Nor does its success prove
 * access for the calls that move money.
 */
const OUTSIDE_READINESS: ReadonlySet<string> = new Set<EndpointName>(['getBalance']);

/** An account whose latest telling answer from the provider was a configuration fault. */
export interface ProviderAccessProblem {
  readonly accountId: string;
  /** The provider's reason, e.g. "IP not whitelisted", "APIs not enabled for the account". */
  readonly reason: string;
  /** When the fault was first seen (ISO time), since access last worked. */
  readonly since: string;
}

/**
 * Whether the provider still accepts our credentials and source address, per account. The latest
 * telling answer wins: a fatal-config (bad credentials, IP not whitelisted, APIs not enabled)
 * marks the account; an answer that proves access (success, pending, or a business failure the
 * provider itself sent) clears it. Answers that prove neither (timeouts, retry-safe, a token to
 * refresh, local validation) change nothing. Readiness reads `problems()`.
 */
export class ProviderAccessState {
  private readonly faults = new Map<string, ProviderAccessProblem>();

  constructor(private readonly now: () => number = Date.now) {}

  record(accountId: string, result: ProviderResult<unknown>): void {
    if (OUTSIDE_READINESS.has(result.diagnostics.endpoint)) return;
    if (result.outcome === 'fatal-config') {
      const prior = this.faults.get(accountId);
      this.faults.set(accountId, {
        accountId,
        reason: result.reason,
        since: prior?.since ?? new Date(this.now()).toISOString(),
      });
      return;
    }
    const answered = result.diagnostics.sent && result.diagnostics.httpStatus !== undefined;
    if (
      answered &&
      (result.outcome === 'success' || result.outcome === 'pending' || result.outcome === 'failed')
    ) {
      this.faults.delete(accountId);
    }
  }

  problems(): ProviderAccessProblem[] {
    return [...this.faults.values()];
  }
}
