import type pg from 'pg';
import { type PayoutLedger, type PayoutRepository, type PayoutRow } from '#ledger';
import { type AppLogger, NOOP_TRACING, Poller, type Tracing, type WorkerMetricsPort } from '#observability';
import { type Connectors } from '#provider-client';
import { type PayoutSubmission } from '../shared/payout-submission.js';
import { type ReconcilerMetrics } from '../shared/reconciler.metrics.js';
import { type CheckStep, decideBeforeAsking, decideOnAnswer, type StatusCheck } from './decide-check.js';
import { apiOf } from '../shared/payout-kinds.js';
import { type LongWaitRules } from './long-waits.js';
import { attentionWatchFirst, decideOnAttentionAnswer, SETTLED_WHILE_WAITING } from './attention-watch.js';

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
  /** Past the reversal watch's schedule, working days of the bank calendar it still goes on for. */
  readonly reversalWatchWorkingDays?: number;
  /** How long a payout the provider does not deduplicate must stay "not found" before it is FAILED. */
  readonly notFoundSettleMs: number;
  /**
   * The failed watch (ADR 0018) of every FAILED, REJECTED or REVERSED of a kind with a status
   * endpoint: watch[0] is applied by the ledger on the move, watch[n] follows the n-th watch
   * check; past its end it stops.
   */
  readonly failedWatch: readonly number[];
  /** How long a refused re-send (refused_on_resend) is asked about before a person has it. */
  readonly refusedResendSettleMs: number;
  /** Accounts where a payout still unknown to the status endpoint after the settle window is FAILED. */
  readonly notReceivedFailsAccounts: ReadonlySet<string>;
  /** The provider's long waits and the attention watch (issue 29); absent: neither. */
  readonly waits?: LongWaitRules;
}

export interface ReconcilerDeps {
  pool: pg.Pool;
  payouts: PayoutRepository;
  /** Every state change goes through it (transition, event, line, stale count). */
  ledger: PayoutLedger;
  /** The provider, per API generation: a row is asked on the generation it was sent on. */
  connectors: Connectors;
  submission: PayoutSubmission;
  metrics: ReconcilerMetrics;
  logger: AppLogger;
  /** A span per check, in the payout's trace (ADR 0015). */
  tracing?: Tracing;
  /** Counts failed rounds (payouts_worker_failures_total{worker="reconciler"}). */
  workerMetrics?: WorkerMetricsPort;
}

/**
 * Brings unclear payouts to their true state: PENDING and UNKNOWN rows are asked about with the
 * status endpoint of the API that made them; SUBMITTING rows whose lease ran out are asked about
 * too (a crash or a lost lease may hide an accepted initiation), and re-sent with the SAME
 * transferId only when the provider never got it (or said it did not process it); SUCCESS rows under
 * reversal watch are asked whether the bank reversed them, and FAILED, REJECTED and REVERSED rows
 * (the failed watch) whether the money moved after all: what contradicts a published terminal
 * state is recorded as a contradiction (ADR 0018), never applied. Claims are row locks with a lease, so
 * any number of instances can run.
 */
export class PayoutReconciler {
  /** Set by stop(): a round in progress claims nothing more. */
  private stopping = false;
  private readonly poller: Poller;

  constructor(
    private readonly d: ReconcilerDeps,
    private readonly s: ReconcilerSettings,
  ) {
    this.poller = new Poller({
      name: 'reconciler',
      logger: d.logger,
      metrics: d.workerMetrics,
      step: async () => ((await this.tick()) === 0 ? 'idle' : 'busy'),
      pollMs: s.pollMs,
      failureMessage: 'reconciler: round failed',
    });
  }

  start(): void {
    if (this.poller.running) return;
    this.stopping = false;
    this.poller.start();
  }

  /** Ends the wait between rounds at once; resolves when the round in progress has ended. */
  async stop(): Promise<void> {
    this.stopping = true;
    await this.poller.stop();
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
    if (this.s.waits && !this.stopping) claimed += await this.watchAttention(step);
    return claimed;
  }

  /**
   * The attention watch (issue 29): up to `limit` due REQUIRES_ATTENTION rows per round, after
   * the unclear ones (a slow watch never delays them).
   */
  private async watchAttention(limit: number): Promise<number> {
    const rows = await this.d.payouts.claimAttentionChecks(this.d.pool, this.s.owner, this.s.leaseMs, limit);
    await Promise.all(rows.map((r) => this.check(r)));
    return rows.length;
  }

  /** One claimed row: decide (decide-check.ts), ask the provider when that is the step, act. */
  async check(row: PayoutRow): Promise<void> {
    const tracing = this.d.tracing ?? NOOP_TRACING;
    if (!tracing.enabled) return this.checkRow(row);
    return tracing.inSpan(
      'payout status check',
      {
        parents: [row.traceparent],
        attributes: {
          'payouts.kind': row.kind,
          'payouts.status': row.status,
          'payouts.check': row.checkCount + 1,
          'payouts.id': row.id,
        },
      },
      () => this.checkRow(row),
    );
  }

  private async checkRow(row: PayoutRow): Promise<void> {
    this.d.metrics.checks.inc({ status: row.status });
    try {
      if (row.status === 'REQUIRES_ATTENTION') {
        const check = await this.askStatus(row);
        return await this.act(row, decideOnAttentionAnswer(row, check, this.s), check);
      }
      const first = decideBeforeAsking(row, this.s);
      if (first.do !== 'ask-status') return await this.act(row, first);
      const check = await this.askStatus(row);
      await this.act(row, decideOnAnswer(row, check, first.resendsSpent, this.s), check);
    } catch (e) {
      this.d.logger.error(
        { err: e, transferId: row.transferId },
        'reconciler: check failed; the lease will bring it back',
      );
    }
  }

  private async act(row: PayoutRow, step: CheckStep, check?: StatusCheck): Promise<void> {
    const providerStatus = check?.found ? check.answer.raw : undefined;
    if ('note' in step && step.note === 'unknown-status') {
      this.d.metrics.unknownStatus.inc();
      this.d.logger.warn(
        { transferId: row.transferId, providerStatus },
        'reconciler: unknown provider status; will check again',
      );
    } else if ('note' in step && step.note === 'backwards') {
      this.d.metrics.backwards.inc();
      this.d.logger.warn(
        { transferId: row.transferId, from: row.status, providerStatus },
        'reconciler: status answer would move the payout backwards; ignored',
      );
    }
    switch (step.do) {
      case 'ask-status':
        throw new Error('ask-status is decided before asking, never acted on');
      case 'resend':
        return this.resend(row);
      case 'attention':
        return this.requireAttention(row, step.reason);
      case 'reschedule':
        await this.d.payouts.reschedule(
          this.d.pool,
          row.id,
          row.version,
          new Date(Date.now() + step.inMs),
          step.lastError,
        );
        return;
      case 'end-watch':
        return this.endWatch(row);
      case 'contradict':
        return this.contradict(row, step);
      case 'move':
        return this.move(row, step);
    }
  }

  private async askStatus(row: PayoutRow): Promise<StatusCheck> {
    const opts = { accountId: row.accountId, requestId: row.requestId ?? undefined };
    const connector = this.d.connectors[apiOf(row)];
    if (connector.traits(row.kind).status === null) return { found: false, result: 'no-status-endpoint' };
    return connector.checkPayout(row.kind, row.transferId, opts);
  }

  private async resend(row: PayoutRow): Promise<void> {
    const resent = await this.d.ledger.resend(row, 'reconciler');
    if (!resent) return;
    this.d.metrics.resends.inc();
    await this.d.submission.run(resent);
  }

  private async move(row: PayoutRow, step: Extract<CheckStep, { do: 'move' }>): Promise<void> {
    const { to, answer: a, raw, recheckInMs } = step;
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
          nextCheckAt: recheckInMs === undefined ? null : new Date(Date.now() + recheckInMs),
          // Where it now waits at the provider (issue 29): said, or no longer said.
          ...(to === 'PENDING' ? { subState: a.subState ?? null } : {}),
          // The provider's fee (issue 32), when it says it of a settled payout.
          ...(a.fee ? { fee: a.fee } : {}),
        },
      },
      'reconciler',
    );
    // The row moved on while we asked (another writer, a newer answer): this answer is older.
    if (!moved) return this.d.metrics.backwards.inc();
    this.d.metrics.transitions.inc({ from: row.status, to });
    if (row.status === 'REQUIRES_ATTENTION' && a.reason?.startsWith(SETTLED_WHILE_WAITING)) {
      this.d.logger.info(
        { transferId: row.transferId, accountId: row.accountId, to, waitedFor: row.reason },
        'reconciler: the provider settled a payout a person had; it left the queue',
      );
    }
  }

  private async endWatch(row: PayoutRow): Promise<void> {
    const ended = await this.d.payouts.reschedule(this.d.pool, row.id, row.version, null, null);
    if (ended && row.status === 'REQUIRES_ATTENTION') {
      this.d.logger.info(
        { transferId: row.transferId, reason: row.reason },
        'reconciler: attention watch ended; the payout stays with a person',
      );
    } else if (ended) {
      this.d.logger.info(
        { transferId: row.transferId, checks: row.checkCount, status: row.status },
        `reconciler: ${row.status === 'SUCCESS' ? 'reversal' : 'failed'} watch ended; the payout stays ${row.status}`,
      );
    }
  }

  /**
   * The provider contradicts the published terminal state: recorded through the ledger (once per
   * observation; the ledger counts and logs it), never applied. The watch goes on, or ends.
   */
  private async contradict(row: PayoutRow, step: Extract<CheckStep, { do: 'contradict' }>): Promise<void> {
    await this.d.ledger.contradict(
      { row, observed: step.observed, observedCode: step.raw ?? null },
      'reconciler',
    );
    const next = step.inMs === undefined ? null : new Date(Date.now() + step.inMs);
    await this.d.payouts.reschedule(this.d.pool, row.id, row.version, next, null);
  }

  private async requireAttention(row: PayoutRow, reason: string): Promise<void> {
    // Still asked, slowly, where the provider can be (the attention watch, issue 29).
    const watchIn =
      this.d.connectors[apiOf(row)].traits(row.kind).status === null
        ? undefined
        : attentionWatchFirst(this.s);
    const nextCheckAt = watchIn === undefined ? null : new Date(Date.now() + watchIn);
    // The ledger step counts it (payouts_requires_attention_total), as for every other writer.
    await this.d.ledger.change(
      { row, to: 'REQUIRES_ATTENTION', fields: { reason, nextCheckAt }, log: { reason } },
      'reconciler',
    );
  }
}
