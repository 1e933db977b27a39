import type pg from 'pg';
import { type BatchStatus, type PayoutStatus } from '#contracts';
import {
  type BatchChange,
  type BatchChangeFields,
  type BatchItemRow,
  type BatchLedger,
  type BatchRepository,
  type BatchRow,
  contradictionOf,
  type EntryContradiction,
} from '#ledger';
import { type AppLogger, NOOP_TRACING, Poller, type Tracing, type WorkerMetricsPort } from '#observability';
import {
  type BatchCheck,
  type BatchEntryState,
  type Connectors,
  type ProviderResult,
} from '#provider-client';
import { apiOf } from '../shared/payout-kinds.js';
import { nextCheckDelay } from '../shared/check-schedule.js';
import { type ReconcilerMetrics } from '../shared/reconciler.metrics.js';
import { type LongWaitRules, SETTLED_WHILE_WAITING } from '../shared/long-waits.js';
import { after, type BatchSubmission } from './batch-submission.js';
import { batchAttentionReason, onBatchNotFound } from './decide-batch-submit.js';
import {
  allEntriesFinal,
  answersAnotherBatch,
  BATCH_SCHEDULE_EXHAUSTED,
  batchAttentionDelay,
  batchWaitStep,
} from './decide-batch-wait.js';

export interface BatchCheckWorkerDeps {
  pool: pg.Pool;
  batches: BatchRepository;
  /** Every state change of a batch and its entries goes through it (move, event, history, line). */
  ledger: BatchLedger;
  /** The provider, per API generation: a batch is asked on the generation it was sent on. */
  connectors: Connectors;
  /** Sends a batch again when the provider does not have it. */
  submission: BatchSubmission;
  logger: AppLogger;
  /** Counts entry results that would move an entry backwards, and batches handed to a person. */
  metrics: ReconcilerMetrics;
  /** A batch's checks join its command's trace, as a payout's do. */
  tracing?: Tracing;
  /** Counts failed rounds (payouts_worker_failures_total{worker="batch_check"}). */
  workerMetrics?: WorkerMetricsPort;
}

export interface BatchCheckWorkerSettings {
  readonly owner: string;
  readonly leaseMs: number;
  /** Delays between checks (RECONCILE_SCHEDULE): past its end, REQUIRES_ATTENTION. */
  readonly schedule: readonly number[];
  /** Sends of one batch, in all, before a person decides (MAX_SEND_ATTEMPTS). */
  readonly maxSendAttempts: number;
  /** Batches checked at once, and so claimed at once. */
  readonly perRound: number;
  readonly pollMs: number;
  /**
   * The failed watch of a COMPLETED batch's negative entries (FAILED_WATCH_SCHEDULE): the ledger
   * sets its first check on COMPLETED, failedWatch[n] follows the n-th; past its end it stops.
   */
  readonly failedWatch: readonly number[];
  /**
   * The provider's long waits and the attention watch (issue 29), as for single payouts: an open
   * batch goes by its entries' longest wait, and a batch a person has is still asked. Absent: the
   * generic schedule alone, and no watch.
   */
  readonly waits?: LongWaitRules;
}

const TERMINAL_ITEM = new Set(['SUCCESS', 'FAILED', 'REJECTED', 'REVERSED']);

/** An entry's result is applied unless it would undo a final state (SUCCESS may still be REVERSED). */
function itemMayMove(from: string, to: string): boolean {
  if (from === to || !TERMINAL_ITEM.has(from)) return true;
  return from === 'SUCCESS' && to === 'REVERSED';
}

/**
 * Follows submitted batches with the batch status endpoint of their generation, from a loop of its own. Each entry's
 * change is an event; once every entry is final the batch is COMPLETED with totals. The batch's
 * status is derived from its entries.
 *
 * A batch left SUBMITTING (a crash mid-call, or an attempt the provider did not process) is
 * asked about before it is sent again: the provider may have it. Like single payouts, checks
 * follow RECONCILE_SCHEDULE, or the provider's long waits its entries are in (the longest open
 * one, issue 29), and sends are bounded by MAX_SEND_ATTEMPTS; past either, the batch is
 * REQUIRES_ATTENTION, where the attention watch still asks the provider.
 */
export class BatchCheckWorker {
  private readonly poller: Poller;

  constructor(
    private readonly d: BatchCheckWorkerDeps,
    private readonly s: BatchCheckWorkerSettings,
  ) {
    this.poller = new Poller({
      name: 'batch_check',
      logger: d.logger,
      metrics: d.workerMetrics,
      step: async () => ((await this.checkDue(s.perRound)) === 0 ? 'idle' : 'busy'),
      pollMs: s.pollMs,
      failureMessage: 'batch checks failed; retrying',
    });
  }

  start(): void {
    this.poller.start();
  }

  /** Stops claiming, ending the wait between rounds at once; resolves once the round in progress has ended. */
  async stop(): Promise<void> {
    await this.poller.stop();
  }

  /**
   * Claims batches due for a status check and checks them together. Claim no more than can be
   * checked at once: a claimed row waiting its turn here would outlive its lease and be checked
   * by another instance at the same time.
   */
  async checkDue(limit: number): Promise<number> {
    const rows = await this.d.batches.claimDueChecks(this.d.pool, this.s.owner, this.s.leaseMs, limit);
    await Promise.all(
      rows.map((b) =>
        this.check(b).catch((e: unknown) => this.d.logger.error({ err: e }, 'batch check failed')),
      ),
    );
    return rows.length;
  }

  /** One claimed batch, in its command's trace (its row's traceparent), as a payout's check is. */
  private check(batch: BatchRow): Promise<void> {
    const tracing = this.d.tracing ?? NOOP_TRACING;
    if (!tracing.enabled) return this.checkBatch(batch);
    return tracing.inSpan(
      'batch status check',
      {
        parents: [batch.traceparent],
        attributes: {
          'payouts.batch.id': batch.id,
          'payouts.status': batch.status,
          'payouts.check': (batch.checkCount ?? 0) + 1,
        },
      },
      () => this.checkBatch(batch),
    );
  }

  private async checkBatch(batch: BatchRow): Promise<void> {
    const answer = await this.d.connectors[apiOf(batch)].checkBatch(batch.batchTransferId, {
      accountId: batch.accountId,
      requestId: batch.requestId ?? undefined,
    });
    if (batch.status === 'COMPLETED') return this.watch(batch, answer);
    if (batch.status === 'REQUIRES_ATTENTION') return this.watchAttention(batch, answer);
    if (!answer.found) {
      const r = answer.result;
      if (r.outcome === 'failed' && r.kind === 'not-found' && batch.status !== 'PROCESSING') {
        // A batch whose re-send the provider refused is never sent again: asked later, then a person.
        return onBatchNotFound(batch) === 'resend' ? this.resubmit(batch) : this.later(batch, r);
      }
      return this.later(batch, r);
    }
    const results = answer.entries;
    const outcome = await this.d.ledger.transaction(async (tx) => {
      const c = tx.client;
      // First the batch row's lock: an overlapping check of this batch (one that outlived its
      // lease) waits here, so the two commit their entry events in the order of their ids.
      await this.d.batches.lockForEvents(c, batch.id);
      const current = await this.d.batches.items(c, batch.id);
      const before = new Map(current.map((i) => [i.transferId, i.status]));
      const { updates, contradicted } = sortEntryResults(current, results);
      const ignored = results.length - updates.length - contradicted.length;
      if (ignored > 0) {
        this.d.metrics.backwards.inc(ignored);
        this.d.logger.warn(
          { batchTransferId: batch.batchTransferId, ignored },
          'batch status answer would move entries backwards; ignored',
        );
      }
      // The entries' events go first: the batch's own event follows them in its stream.
      await this.d.ledger.applyEntries(tx, batch, updates, before, 'batches');
      // A FAILED entry the provider now holds as paid or pending: recorded, never applied.
      await this.d.ledger.contradictEntries(tx, batch, contradicted, 'reconciler');
      const all = await this.d.batches.items(c, batch.id);
      const totals = totalsOf(all);
      const done = all.every((i) => TERMINAL_ITEM.has(i.status));
      // By the entries' longest open wait at the provider (issue 29), or the generic schedule.
      const step = batchWaitStep(batch, all, this.s.schedule, this.s.waits, Date.now());
      let change: BatchChange | undefined;
      // SUBMITTING or UNKNOWN: the provider has the batch after all.
      if (batch.status !== 'PROCESSING' || done) {
        change = {
          batch,
          to: done ? 'COMPLETED' : 'PROCESSING',
          fields: {
            referenceId: answer.referenceId ?? null,
            nextCheckAt: done ? null : after('inMs' in step ? step.inMs : 60_000),
            totals,
          },
        };
      } else if ('exhausted' in step) {
        const reason = step.exhausted;
        change = {
          batch,
          to: 'REQUIRES_ATTENTION',
          fields: { reason, totals, nextCheckAt: this.attentionFirst() },
          log: { reason, ...totals },
        };
      } else {
        await this.d.batches.reschedule(c, batch.id, batch.version, after(step.inMs));
      }
      const moved = change ? await this.d.ledger.apply(tx, change, 'batches') : undefined;
      return { status: moved?.status ?? batch.status, totals, moved };
    });
    // The ledger has logged the entries' and the batch's changes (after the commit).
    if (outcome.status === 'COMPLETED') {
      this.d.logger.info({ batchTransferId: batch.batchTransferId, ...outcome.totals }, 'batch completed');
    } else if (outcome.moved?.status === 'REQUIRES_ATTENTION') {
      this.d.metrics.requiresAttention.inc({ reason: outcome.moved.reason ?? BATCH_SCHEDULE_EXHAUSTED });
    }
  }

  /** The attention watch's first check of a batch handed to a person now (null: no watch). */
  private attentionFirst(): Date | null {
    const inMs = batchAttentionDelay(new Date(), this.s.waits, Date.now());
    return inMs === undefined ? null : after(inMs);
  }

  /**
   * The attention watch of a batch (issue 29), as a payout's: a REQUIRES_ATTENTION batch is still
   * asked on ATTENTION_WATCH_SCHEDULE from when a person got it. Its entries' answers are applied
   * as a check applies them (forwards only; a contradiction of a published negative entry is
   * recorded); once the provider holds every entry final, the batch is COMPLETED with reason
   * `settled_by_provider_while_waiting` (its negative entries then under the failed watch) and
   * leaves the queue. No answer, another batch's record, or an entry still open: it stays with
   * the person, asked again until the watch ends.
   */
  private async watchAttention(batch: BatchRow, answer: BatchCheck): Promise<void> {
    const delay = batchAttentionDelay(batch.updatedAt, this.s.waits, Date.now());
    const next = delay === undefined ? null : after(delay);
    const stay = async (c: pg.Pool | pg.PoolClient) => {
      await this.d.batches.reschedule(c, batch.id, batch.version, next);
      if (next === null)
        this.d.logger.info(
          { batchTransferId: batch.batchTransferId, reason: batch.reason },
          'batch attention watch ended; the batch stays with a person',
        );
    };
    if (!answer.found || answersAnotherBatch(batch, answer.referenceId)) return stay(this.d.pool);
    const results = answer.entries;
    const settled = await this.d.ledger.transaction(async (tx) => {
      const c = tx.client;
      await this.d.batches.lockForEvents(c, batch.id);
      const current = await this.d.batches.items(c, batch.id);
      const before = new Map(current.map((i) => [i.transferId, i.status]));
      const { updates, contradicted } = sortEntryResults(current, results);
      await this.d.ledger.applyEntries(tx, batch, updates, before, 'batches');
      await this.d.ledger.contradictEntries(tx, batch, contradicted, 'reconciler');
      const all = await this.d.batches.items(c, batch.id);
      if (!allEntriesFinal(all)) {
        await stay(c);
        return undefined;
      }
      const totals = totalsOf(all);
      return this.d.ledger.apply(
        tx,
        {
          batch,
          to: 'COMPLETED',
          fields: {
            referenceId: answer.referenceId ?? null,
            reason: SETTLED_WHILE_WAITING,
            nextCheckAt: null,
            totals,
          },
          log: { waitedFor: batch.reason, ...totals },
        },
        'batches',
      );
    });
    if (settled) {
      this.d.logger.info(
        { batchTransferId: batch.batchTransferId, accountId: batch.accountId, waitedFor: batch.reason },
        'the provider settled a batch a person had; it left the queue',
      );
    }
  }

  /**
   * The failed watch of a COMPLETED batch (ADR 0018, issue 29): its entries' answers are read as
   * a payout's watch reads them. A negative entry the provider now holds as paid or pending is a
   * contradiction (event, metric, alert, queue row); a legal move (SUCCESS to REVERSED) is
   * applied; anything else, or no answer, changes nothing. The watch goes on per its schedule,
   * then ends; a completed batch is never handed to a person.
   */
  private async watch(batch: BatchRow, answer: BatchCheck): Promise<void> {
    const delay = nextCheckDelay(this.s.failedWatch, batch.checkCount ?? 0);
    const next = delay === undefined ? null : after(delay);
    if (!answer.found) return this.d.batches.reschedule(this.d.pool, batch.id, batch.version, next);
    const results = answer.entries;
    await this.d.ledger.transaction(async (tx) => {
      const c = tx.client;
      await this.d.batches.lockForEvents(c, batch.id);
      const current = await this.d.batches.items(c, batch.id);
      const before = new Map(current.map((i) => [i.transferId, i.status]));
      const { updates, contradicted } = sortEntryResults(current, results);
      // Only entries that change are written (a REVERSED after SUCCESS, a late UTR).
      await this.d.ledger.applyEntries(tx, batch, updates, before, 'batches');
      await this.d.ledger.contradictEntries(tx, batch, contradicted, 'reconciler');
      await this.d.batches.reschedule(c, batch.id, batch.version, next);
    });
    if (next === null) {
      this.d.logger.info(
        { batchTransferId: batch.batchTransferId, checks: batch.checkCount },
        'batch failed watch ended; its entries stay as they are',
      );
    }
  }

  /** The provider does not have the batch: send it again (same batchTransferId), within bounds. */
  private async resubmit(batch: BatchRow): Promise<void> {
    if (nextCheckDelay(this.s.schedule, batch.checkCount ?? 0) === undefined)
      return this.move(batch, 'REQUIRES_ATTENTION', { reason: 'not_processed_after_retries' });
    // A provider that answers "already exists" to a send and "not found" to a status call would
    // otherwise be sent the batch forever.
    if (batch.attempt >= this.s.maxSendAttempts)
      return this.move(batch, 'REQUIRES_ATTENTION', { reason: 'too_many_send_attempts' });
    const next = await this.d.ledger.resend(batch, this.s.owner, this.s.leaseMs, 'batches');
    if (next) await this.d.submission.submit(next);
  }

  /**
   * No answer about the batch this time: asked again by its entries' waits as they were last seen
   * (a queued entry does not reach a person because one call failed), or the generic schedule.
   */
  private async later(batch: BatchRow, r: ProviderResult<unknown>): Promise<void> {
    const entries = this.s.waits ? await this.d.batches.items(this.d.pool, batch.id) : [];
    const step = batchWaitStep(batch, entries, this.s.schedule, this.s.waits, Date.now());
    if ('inMs' in step)
      return this.d.batches.reschedule(this.d.pool, batch.id, batch.version, after(step.inMs));
    const reason =
      step.exhausted === BATCH_SCHEDULE_EXHAUSTED ? batchAttentionReason(batch, r.outcome) : step.exhausted;
    await this.move(batch, 'REQUIRES_ATTENTION', { reason });
  }

  private async move(batch: BatchRow, to: BatchStatus, fields: BatchChangeFields): Promise<void> {
    // The metric's label is the reason's fixed part, not its detail.
    const label = (fields.reason ?? 'reconciliation_schedule_exhausted').split(' ')[0]!;
    const log = to === 'REQUIRES_ATTENTION' ? { reason: label } : undefined;
    // A batch handed to a person is still asked (the attention watch, issue 29).
    const watched = to === 'REQUIRES_ATTENTION' ? { nextCheckAt: this.attentionFirst(), ...fields } : fields;
    const next = await this.d.ledger.change({ batch, to, fields: watched, log }, 'batches');
    if (next?.status === 'REQUIRES_ATTENTION') this.d.metrics.requiresAttention.inc({ reason: label });
  }
}

/**
 * The provider's entry results against the entries as they are (locked): the ones to apply
 * (forwards only), and the ones that contradict a published negative state (ADR 0018). What is
 * in neither would move an entry backwards: counted and ignored by the caller.
 */
function sortEntryResults(
  current: readonly BatchItemRow[],
  results: readonly BatchEntryState[],
): { updates: BatchEntryState[]; contradicted: EntryContradiction[] } {
  const byId = new Map(current.map((i) => [i.transferId, i]));
  const updates: BatchEntryState[] = [];
  const contradicted: EntryContradiction[] = [];
  for (const u of results) {
    const item = byId.get(u.transferId);
    const from = item?.status ?? 'RECEIVED';
    if (itemMayMove(from, u.status)) updates.push(u);
    else if (item && contradictionOf(from as PayoutStatus, u.status as PayoutStatus)) {
      contradicted.push({ item, observed: u.status as PayoutStatus, observedCode: u.status });
    }
  }
  return { updates, contradicted };
}

function totalsOf(items: readonly BatchItemRow[]): {
  entries: number;
  succeeded: number;
  failed: number;
  pending: number;
} {
  const succeeded = items.filter((i) => i.status === 'SUCCESS').length;
  const failed = items.filter((i) => TERMINAL_ITEM.has(i.status) && i.status !== 'SUCCESS').length;
  return { entries: items.length, succeeded, failed, pending: items.length - succeeded - failed };
}
