/**
 * What one look at a dependency found at boot. `misconfigured`: the dependency answered and
 * refused us (a database that does not exist, a wrong password): waiting will not help, the boot
 * stops at once (exit 78). `unavailable`: nobody answered (refused, timed out, not resolvable):
 * the boot keeps trying until BOOT_DEPENDENCY_TIMEOUT_MS (then exit 69).
 */
export type ProbeResult =
  | { readonly state: 'up' }
  | { readonly state: 'unavailable'; readonly reason: string }
  | { readonly state: 'misconfigured'; readonly variable: string; readonly reason: string };

export interface Dependency {
  /** `postgres`, `kafka`: in logs, /health/ready and the exit message. */
  readonly name: string;
  /** Where, safe to print (host:port/db, brokers), never credentials. */
  readonly target: string;
  /** One look, bounded in time by the probe itself; never throws. */
  probe(): Promise<ProbeResult>;
}
