import type pg from 'pg';
import { type SignInMetrics } from '../sign-in-gate.js';
import { type SignInAuditEntry, type SignInAuditRepository } from './sign-in-audit.repository.js';

/**
 * Counts and audits sign-ins: each console sign-in, refusal and sign-out gets a row in
 * `operator_sign_in`. A bearer token signs in on every request: its refusals are each recorded (the
 * sign-in gate limits how many a source can make), its successes once per token per interval, so
 * the table says who used which token when without a row per API call. Counted in
 * `payouts_ops_sign_ins_total` by method and outcome (the token path is counted by the gate).
 */
export class SignInRecorder {
  private readonly lastUse = new Map<string, number>();

  constructor(
    private readonly pool: pg.Pool,
    private readonly audit: SignInAuditRepository,
    readonly metrics: SignInMetrics,
    private readonly tokenUseIntervalMs: number,
  ) {}

  /** A console sign-in, refusal or sign-out: counted and audited. */
  async console(e: Omit<SignInAuditEntry, 'tokenId'> & { method: 'oidc' | 'session' }): Promise<void> {
    this.metrics.signIns.inc({ method: e.method, outcome: e.outcome });
    await this.audit.record(this.pool, e);
  }

  /** A bearer token's sign-in (already counted by the gate): audited, successes sampled. */
  async token(e: Omit<SignInAuditEntry, 'method'>, now: number): Promise<void> {
    if (e.outcome === 'success') {
      const key = `${e.tokenId ?? ''}/${e.operatorId ?? ''}`;
      const last = this.lastUse.get(key);
      if (last !== undefined && now - last < this.tokenUseIntervalMs) return;
      if (this.lastUse.size > 10_000) this.lastUse.clear();
      this.lastUse.set(key, now);
    }
    await this.audit.record(this.pool, { ...e, method: 'token' });
  }
}
