import type pg from 'pg';
import { type PayoutRepository } from '#ledger';
import { type AppLogger } from '#observability';

export interface LeaseKeeperSettings {
  /** The lease_owner this process claims rows as. */
  readonly owner: string;
  readonly leaseMs: number;
  /** How often the leases are renewed; well under leaseMs. */
  readonly intervalMs: number;
}

export interface LeaseLostListener {
  (id: string): void;
}

/**
 * Keeps the leases of this process's in-flight provider calls alive. A call may outlast the lease
 * (a rate-limit wait, an authorize, a 40 s header timeout, retries); without a heartbeat the
 * reconciler would take the row while the call is still running. One timer per process renews
 * every held lease in one statement. A lease that could not be renewed (the row moved on, or
 * another instance took it) is reported once; the call's answer is still offered to the ledger,
 * which accepts it only if the row is still at the version the call started from.
 */
export class LeaseKeeper {
  private readonly held = new Map<string, number>();
  /** Calls whose outcome is being recorded: the write ends the lease, which is not a loss. */
  private readonly settling = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private renewing: Promise<void> | undefined;

  constructor(
    private readonly pool: pg.Pool,
    private readonly payouts: PayoutRepository,
    private readonly logger: AppLogger,
    private readonly s: LeaseKeeperSettings,
    private readonly onLost: LeaseLostListener = () => undefined,
  ) {}

  /** Holds the row's lease until `release`. */
  hold(id: string, version: number): void {
    this.held.set(id, version);
    this.timer ??= setInterval(() => void this.renew(), this.s.intervalMs);
  }

  /** The call answered and its outcome is being written; the lease is still renewed meanwhile. */
  recording(id: string): void {
    this.settling.add(id);
  }

  release(id: string): void {
    this.held.delete(id);
    this.settling.delete(id);
    if (this.held.size === 0 && this.timer) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }

  /** Rows whose calls are in flight, with the version each call started from. */
  inFlight(): Array<{ id: string; version: number }> {
    return [...this.held].map(([id, version]) => ({ id, version }));
  }

  /** One heartbeat now (the timer calls this; exposed for shutdown and tests). */
  async renew(): Promise<void> {
    if (this.renewing) return this.renewing;
    const held = this.inFlight();
    if (held.length === 0) return;
    this.renewing = (async () => {
      try {
        const renewed = new Set(
          await this.payouts.renewLeases(this.pool, this.s.owner, this.s.leaseMs, held),
        );
        for (const h of held) {
          // Released meanwhile (the call finished) is not a loss.
          if (renewed.has(h.id) || this.held.get(h.id) !== h.version || this.settling.has(h.id)) continue;
          this.held.delete(h.id);
          this.onLost(h.id);
          this.logger.warn(
            { payoutId: h.id },
            'lease lost during a provider call: another worker may act on the row; this answer is kept only if the row has not moved',
          );
        }
      } catch (e) {
        // The next beat tries again; a lease that runs out meanwhile is found by the reconciler,
        // which asks the provider before any re-send.
        this.logger.warn({ err: e, held: held.length }, 'lease renewal failed; retrying on the next beat');
      } finally {
        this.renewing = undefined;
      }
    })();
    return this.renewing;
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }
}
