import { setTimeout as sleep } from 'node:timers/promises';
import type pg from 'pg';
import { type PayoutStatus } from '#contracts';
import { canMove, isTerminal, type PayoutLedger, type PayoutRepository, type PayoutRow } from '#ledger';
import { type AppLogger } from '#observability';
import { type ProviderClient, type ProviderResult } from '#provider-client';
import { errorOf } from '../shared/submit-payout.js';
import { type PayoutSubmission } from '../shared/payout-submission.js';
import { type ReconcilerMetrics } from '../shared/reconciler.metrics.js';
import { type BatchProcessor } from '../batches/batch-processor.js';
import { mapProviderStatus, nextCheckDelay } from '../shared/status-mapping.js';
import { HAS_STATUS_ENDPOINT, onExpiredSubmission, onNotFound } from './in-doubt.js';

export interface ReconcilerSettings {
  readonly owner: string;
  readonly leaseMs: number;
  readonly batchSize: number;
  readonly concurrency: number;
  readonly pollMs: number;
  /** Delays between checks: schedule[n] follows the n-th check. Past its end: REQUIRES_ATTENTION. */
  readonly schedule: readonly number[];
  /** Sends of one transferId, in all, before a person decides. */
  readonly maxSendAttempts: number;
  /**
   * Reversal watch of SUCCESS rows: watch[0] is applied by the ledger on entering SUCCESS,
   * watch[n] follows the n-th watch check. Past its end the watch stops; SUCCESS stays SUCCESS.
   */
  readonly reversalWatch: readonly number[];
}

export interface ReconcilerDeps {
  pool: pg.Pool;
  payouts: PayoutRepository;
  /** Every state change goes through it (transition, event, line, stale count). */
  ledger: PayoutLedger;
  client: ProviderClient;
  submission: PayoutSubmission;
  metrics: ReconcilerMetrics;
  logger: AppLogger;
  batches?: BatchProcessor;
}

type StatusCheck =
  | { found: true; answer: StatusAnswer }
  | { found: false; result: ProviderResult<unknown> | 'no-status-endpoint' };

interface StatusAnswer {
  status?: string;
  reason?: string;
  utr?: string;
  referenceId?: string;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/**
 * Brings unclear payouts to their true state: PENDING and UNKNOWN rows are asked about with the
 * status endpoint of the API that made them; SUBMITTING rows whose lease ran out are asked about
 * too (a crash or a lost lease may hide an accepted initiation), and re-sent with the SAME
 * transferId only when the provider never got it (or said it did not process it); SUCCESS rows under
 * reversal watch are asked whether the bank reversed them. Claims are row locks with a lease, so
 * any number of instances can run.
 */
export class PayoutReconciler {
  private running = false;
  /** Set by stop(): a round in progress claims nothing more. */
  private stopping = false;
  private loop: Promise<void> | undefined;

  constructor(
    private readonly d: ReconcilerDeps,
    private readonly s: ReconcilerSettings,
  ) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    this.stopping = false;
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.stopping = true;
    await this.loop;
  }

  private async run(): Promise<void> {
    while (this.running) {
      let n = 0;
      try {
        n = await this.tick();
      } catch (e) {
        this.d.logger.error({ err: e }, 'reconciler: round failed');
      }
      if (n === 0) await sleep(this.s.pollMs);
    }
  }

  /**
   * One round: claim due rows and check them, up to batchSize in all. Rows are claimed only as
   * many as are checked at once: a claimed row waiting behind others here would outlive its
   * lease, and another instance would check it at the same time. Returns how many were claimed.
   */
  async tick(): Promise<number> {
    const step = Math.min(this.s.concurrency, this.s.batchSize);
    let claimed = 0;
    while (claimed < this.s.batchSize && !this.stopping) {
      const rows = await this.d.payouts.claimDueChecks(
        this.d.pool,
        this.s.owner,
        this.s.leaseMs,
        Math.min(step, this.s.batchSize - claimed),
      );
      claimed += rows.length;
      await Promise.all(rows.map((r) => this.check(r)));
      if (rows.length < step) break;
    }
    const batches = this.d.batches && !this.stopping ? await this.d.batches.checkDue(step) : 0;
    return claimed + batches;
  }

  async check(row: PayoutRow): Promise<void> {
    this.d.metrics.checks.inc({ status: row.status });
    try {
      // Re-sends that the provider kept refusing unprocessed (rate limits, a token refresh, refused
      // credentials): bounded like checks. An earlier attempt may still have reached it, so a
      // person is called only once the status endpoint does not know the transfer either.
      let resendsSpent = false;
      if (row.status === 'SUBMITTING') {
        // A SUBMITTING row past its lease: a crash mid-call (outcome unknown), a lost lease, or an
        // attempt the provider did not process. Only the last is sent again without asking first.
        const step = onExpiredSubmission(row.kind, row.lastError);
        if (step.do === 'attention') return await this.requireAttention(row, step.reason);
        if (step.do === 'resend') {
          if (nextCheckDelay(this.s.schedule, row.checkCount) !== undefined) return await this.resend(row);
          if (row.attempt <= 1 || !HAS_STATUS_ENDPOINT[row.kind]) {
            return await this.requireAttention(row, 'not_processed_after_retries');
          }
          resendsSpent = true;
        }
      }
      const check = await this.askStatus(row);
      if (!check.found) {
        const r = check.result;
        if (r === 'no-status-endpoint') {
          return row.status === 'SUCCESS'
            ? await this.endWatch(row)
            : await this.requireAttention(row, 'no_status_endpoint');
        }
        if (
          r.outcome === 'failed' &&
          r.kind === 'not-found' &&
          (row.status === 'UNKNOWN' || row.status === 'SUBMITTING')
        ) {
          if (resendsSpent) return await this.requireAttention(row, 'not_processed_after_retries');
          // The provider has no record of it. Sending the same transferId again is safe only
          // where the provider would refuse a repeat.
          const step = onNotFound(row.kind);
          if (step.do === 'attention') return await this.requireAttention(row, step.reason);
          return await this.resend(row);
        }
        return await this.later(row, errorOf(r.diagnostics));
      }
      const raw = check.answer.status;
      const to = mapProviderStatus(raw);
      if (!to) {
        this.d.metrics.unknownStatus.inc();
        this.d.logger.warn(
          { transferId: row.transferId, providerStatus: raw },
          'reconciler: unknown provider status; will check again',
        );
        return await this.later(row, { providerStatus: raw ?? null });
      }
      if (to === row.status) return await this.later(row, null);
      if (!canMove(row.status, to)) {
        this.d.metrics.backwards.inc();
        this.d.logger.warn(
          { transferId: row.transferId, from: row.status, providerStatus: raw },
          'reconciler: status answer would move the payout backwards; ignored',
        );
        return await this.later(row, null);
      }
      await this.move(row, to, check.answer, raw);
    } catch (e) {
      this.d.logger.error(
        { err: e, transferId: row.transferId },
        'reconciler: check failed; the lease will bring it back',
      );
    }
  }

  private async askStatus(row: PayoutRow): Promise<StatusCheck> {
    const opts = { accountId: row.accountId, requestId: row.requestId ?? undefined };
    switch (row.kind) {
      case 'validated_upi_payout': {
        const r = await this.d.client.getTransferStatusV2({ transferId: row.transferId }, opts);
        // A status query's outcome is the transfer's own state; what matters is whether it has data.
        const t = 'data' in r ? r.data : undefined;
        if (!t) return { found: false, result: r };
        return {
          found: true,
          answer: { status: t.status, reason: str(t.status_description), utr: str(t.transfer_utr) },
        };
      }
      case 'self_withdrawal':
        return { found: false, result: 'no-status-endpoint' };
      case 'standard_transfer':
      case 'direct_transfer':
      case 'card_payout':
      case 'internal_transfer': {
        const r = await this.d.client.getTransferStatus({ transferId: row.transferId }, opts);
        const t = 'data' in r ? r.data : undefined;
        if (!t) return { found: false, result: r };
        return {
          found: true,
          answer: {
            status: t.status,
            reason: str(t.reason),
            utr: str(t.utr),
            referenceId: str(t.referenceId),
          },
        };
      }
    }
  }

  private async resend(row: PayoutRow): Promise<void> {
    // A provider that answers "already exists" to a send and "not found" to a status call would
    // otherwise be asked forever.
    if (row.attempt >= this.s.maxSendAttempts) return this.requireAttention(row, 'too_many_send_attempts');
    const resent = await this.d.ledger.resend(row, 'reconciler');
    if (!resent) return;
    this.d.metrics.resends.inc();
    await this.d.submission.run(resent);
  }

  private async move(
    row: PayoutRow,
    to: PayoutStatus,
    a: StatusAnswer,
    raw: string | undefined,
  ): Promise<void> {
    // A new state starts its schedule afresh (the ledger resets check_count on a state change):
    // the checks spent on the old state must not send a payout the provider has answered about to a person.
    const delay = isTerminal(to) ? undefined : nextCheckDelay(this.s.schedule, 0);
    if (!isTerminal(to) && delay === undefined)
      return this.requireAttention(row, 'reconciliation_schedule_exhausted');
    const moved = await this.d.ledger.change(
      {
        row,
        to,
        fields: {
          statusCode: raw ?? null,
          reason: a.reason ?? null,
          utr: a.utr ?? null,
          referenceId: a.referenceId ?? null,
          lastError: null,
          nextCheckAt: delay === undefined ? null : new Date(Date.now() + delay),
        },
      },
      'reconciler',
    );
    // The row moved on while we asked (another writer, a newer answer): this answer is older.
    if (!moved) return this.d.metrics.backwards.inc();
    this.d.metrics.transitions.inc({ from: row.status, to });
  }

  /** Same state: look again per the schedule, or hand it to a person when the schedule is spent. */
  private async later(row: PayoutRow, lastError: Record<string, unknown> | null): Promise<void> {
    if (row.status === 'SUCCESS') {
      // The reversal watch: a settled payout is never handed to a person, the watch just ends.
      const next = nextCheckDelay(this.s.reversalWatch, row.checkCount);
      if (next === undefined) return this.endWatch(row);
      await this.d.payouts.reschedule(
        this.d.pool,
        row.id,
        row.version,
        new Date(Date.now() + next),
        lastError,
      );
      return;
    }
    const delay = nextCheckDelay(this.s.schedule, row.checkCount);
    if (delay === undefined) return this.requireAttention(row, 'reconciliation_schedule_exhausted');
    await this.d.payouts.reschedule(
      this.d.pool,
      row.id,
      row.version,
      new Date(Date.now() + delay),
      lastError,
    );
  }

  private async endWatch(row: PayoutRow): Promise<void> {
    const ended = await this.d.payouts.reschedule(this.d.pool, row.id, row.version, null, null);
    if (ended) {
      this.d.logger.info(
        { transferId: row.transferId, checks: row.checkCount },
        'reconciler: reversal watch ended; the payout stays SUCCESS',
      );
    }
  }

  private async requireAttention(row: PayoutRow, reason: string): Promise<void> {
    const moved = await this.d.ledger.change(
      { row, to: 'REQUIRES_ATTENTION', fields: { reason, nextCheckAt: null }, log: { reason } },
      'reconciler',
    );
    if (moved) this.d.metrics.requiresAttention.inc({ reason });
  }
}
