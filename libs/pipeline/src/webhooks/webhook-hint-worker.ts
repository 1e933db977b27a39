import type pg from 'pg';
import { type PayoutStatus, type ProviderSubState } from '#contracts';
import { inTransaction } from '#database';
import {
  type BatchRepository,
  type BatchRow,
  type LedgerOutbox,
  type PayoutLedger,
  type PayoutRepository,
  type PayoutRow,
  PROVIDER_NOTICES,
  type ProviderNotice,
  providerNoticeEvent,
  TransferIdentityRepository,
  type WebhookRepository,
  type WebhookRow,
  type WebhookState,
} from '#ledger';
import { type AppLogger, Poller, type WorkerMetricsPort } from '#observability';
import { type ProviderNoticeKind, type ProviderWebhooks, type WebhookMeaning } from '#provider-client';
import { apiOf, hasStatusCheck } from '../shared/payout-kinds.js';
import { decideHint, type HintContext, onContradiction } from './decide-hint.js';
import { decideSubStateHint } from './decide-sub-state-hint.js';
import { webhookOutcome } from './webhook-outcome.js';
import { type WebhookMetrics } from './webhooks.metrics.js';

export interface WebhookWorkerSettings {
  /** How long a claimed webhook is held before another worker may take it. */
  readonly leaseMs: number;
  readonly batchSize: number;
  /** Transfers handled side by side (each one's webhooks stay in arrival order). */
  readonly concurrency: number;
  readonly pollMs: number;
  readonly retryMs: number;
  readonly giveUpMs: number;
  readonly unmatchedRetryMs: number;
  readonly unmatchedKeepMs: number;
  readonly retentionMs: number;
  /** Reopens of one payout by webhooks allowed per `reopenPeriodMs`; past it, recorded, not applied. */
  readonly reopenLimit: number;
  readonly reopenPeriodMs: number;
}

export interface WebhookWorkerDeps {
  readonly pool: pg.Pool;
  readonly webhooks: WebhookRepository;
  readonly payouts: PayoutRepository;
  readonly batches: BatchRepository;
  /** Who holds a transfer id: a single payout or a batch entry (default: the table's). */
  readonly identities?: TransferIdentityRepository;
  /** Every state change goes through it, with source 'webhook'. */
  readonly ledger: PayoutLedger;
  readonly outbox: LedgerOutbox;
  readonly metrics: WebhookMetrics;
  readonly logger: AppLogger;
  /** Counts failed rounds (payouts_worker_failures_total{worker="webhook_hints"}). */
  readonly workerMetrics?: WorkerMetricsPort;
  /** What a kept webhook is about, in the service's terms (the provider port's). */
  readonly provider: Pick<ProviderWebhooks, 'meaning' | 'balanceRefused'>;
  /** The webhook says the account's balance moved (low, credited): it is read again (issue 32). */
  readonly onBalanceNotice?: (accountId: string) => void;
}

/** What came of one look at a webhook. */
interface Settlement {
  readonly state: WebhookState;
  readonly outcome: string;
  readonly retryInMs: number | null;
}

const done = (outcome: string): Settlement => ({ state: 'done', outcome, retryInMs: null });

/** Outcomes counted once per webhook, not once per look. */
const REPEATED: ReadonlySet<WebhookState> = new Set(['waiting', 'unmatched']);

/**
 * Turns kept webhooks into hints (ADR 0013), after the HTTP answer: a consistent terminal status
 * is applied through the ledger at once; anything odd asks the reconciler to check the payout (or
 * batch) now; a webhook its payout cannot take yet (still SUBMITTING) waits and is looked at
 * again; one for an unknown transferId is kept and matched again. Woken by NOTIFY
 * (`webhook_received`) or by the intake in this process; polls as a backstop. Claims are row
 * locks with a lease, so any number of instances can run; each claimed group is handled in
 * arrival order.
 */
export class WebhookHintWorker {
  private readonly poller: Poller;
  private lastPurge = 0;
  private readonly identities: TransferIdentityRepository;

  constructor(
    private readonly d: WebhookWorkerDeps,
    private readonly s: WebhookWorkerSettings,
  ) {
    this.identities = d.identities ?? new TransferIdentityRepository();
    this.poller = new Poller({
      name: 'webhook_hints',
      logger: d.logger,
      metrics: d.workerMetrics,
      step: () => this.round(),
      pollMs: s.pollMs,
      failureMessage: 'webhook worker: round failed',
    });
  }

  /** Until stop(): a claimed group's later webhooks are left to their lease once it is called. */
  private get running(): boolean {
    return this.poller.running;
  }

  start(): void {
    this.poller.start();
  }

  wake(): void {
    this.poller.wake();
  }

  async stop(): Promise<void> {
    await this.poller.stop();
  }

  /** One round and the purge; another at once after a full claim, else after the poll or a wake. */
  private async round(): Promise<'busy' | 'idle'> {
    const n = await this.tick();
    await this.purge();
    return n < this.s.batchSize ? 'idle' : 'busy';
  }

  /**
   * One round: claim due webhooks and handle them; those of one transfer (or batch) in arrival
   * order, different ones side by side (up to `concurrency`). Returns how many were claimed.
   */
  async tick(): Promise<number> {
    const rows = await this.d.webhooks.claimDue(this.d.pool, this.s.leaseMs, this.s.batchSize);
    const streams = new Map<string, WebhookRow[]>();
    for (const w of rows) {
      const key = `${w.accountId}/${w.transferId ?? w.batchTransferId ?? `#${w.id}`}`;
      const list = streams.get(key);
      if (list) list.push(w);
      else streams.set(key, [w]);
    }
    const queue = [...streams.values()];
    const lane = async () => {
      for (let list = queue.shift(); list; list = queue.shift()) {
        for (const w of list) if (this.running) await this.handle(w);
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.s.concurrency, queue.length) }, lane));
    return rows.length;
  }

  private async handle(w: WebhookRow): Promise<void> {
    try {
      const meaning = this.d.provider.meaning(w.event, w.fields);
      if ('balance' in meaning && meaning.balance) this.d.onBalanceNotice?.(w.accountId);
      const notice = meaning.about === 'notice' ? noticeOf(meaning.notice) : undefined;
      if (notice) return await this.publishNotice(w, notice);
      const s = await this.settlementOf(w, meaning);
      await this.d.webhooks.settle(this.d.pool, w.id, s.state, s.outcome, s.retryInMs);
      if (!(REPEATED.has(s.state) && w.state === s.state)) this.d.metrics.hints.inc({ outcome: s.outcome });
    } catch (e) {
      this.d.logger.error(
        { err: e, webhookId: w.id, event: w.event, transferId: w.transferId },
        'webhook worker: a webhook failed; the lease brings it back',
      );
    }
  }

  private async settlementOf(w: WebhookRow, m: WebhookMeaning): Promise<Settlement> {
    if (m.about === 'batch') {
      const batch = w.batchTransferId
        ? await this.d.batches.findOne(this.d.pool, w.accountId, w.batchTransferId)
        : undefined;
      return batch ? this.batchHint(w, m, batch) : this.unmatched(w);
    }
    // A transfer event, or one the connector read as a sub-state (issue 29: an approval).
    const aboutTransfer = m.about === 'transfer' || w.fields.subState !== undefined;
    if (!aboutTransfer || !w.transferId) return done('ignored');
    // One namespace of transfer ids (issue 29): a webhook binds to the transfer holding its id, a
    // batch entry's never to a single payout nor the other way round. One that names its batch
    // (v2, body-signed) is an entry's.
    const heldBy = w.batchTransferId
      ? w.batchTransferId
      : (await this.identities.holderOf(this.d.pool, w.accountId, w.transferId))?.batchTransferId;
    if (heldBy) {
      const batch = await this.d.batches.findOne(this.d.pool, w.accountId, heldBy);
      return batch ? this.batchHint(w, m, batch) : this.unmatched(w);
    }
    const payout = await this.d.payouts.findOne(this.d.pool, w.accountId, w.transferId);
    if (payout) return this.payoutHint(w, m, payout);
    // Not registered (a row written around the intake): the entry, as before the registry.
    const batch = await this.d.batches.findByEntry(this.d.pool, w.accountId, w.transferId);
    return batch ? this.batchHint(w, m, batch) : this.unmatched(w);
  }

  /** What decideHint needs besides the row; the reopen count only for a person's payout. */
  private async contextOf(w: WebhookRow, row: PayoutRow): Promise<HintContext> {
    const reopenAllowed =
      row.status !== 'REQUIRES_ATTENTION' ||
      (await this.d.webhooks.reopensSince(this.d.pool, w.accountId, row.transferId, this.s.reopenPeriodMs)) <
        this.s.reopenLimit;
    return { apiVersion: w.apiVersion, checkable: hasStatusCheck(row.kind, apiOf(row)), reopenAllowed };
  }

  private async payoutHint(w: WebhookRow, m: WebhookMeaning, row: PayoutRow): Promise<Settlement> {
    const ctx = await this.contextOf(w, row);
    const sub = w.fields.subState ? decideSubStateHint(row, w.fields.subState, w.fields, ctx) : undefined;
    if (sub?.do === 'sub-state') return this.subStateChange(w, row, sub.subState);
    const step = sub ?? decideHint(row, m, w.fields, ctx);
    const evidence = m.about === 'transfer' ? m.evidence : undefined;
    const log = {
      webhookId: w.id,
      event: w.event,
      version: w.apiVersion,
      transferId: row.transferId,
      status: row.status,
    };
    switch (step.do) {
      case 'apply': {
        const moved = await this.d.ledger.change(
          {
            row,
            to: step.to,
            fields: webhookOutcome(w.fields, evidence, step.to),
            log: { webhookId: w.id, event: w.event },
          },
          'webhook',
        );
        // The row moved on between the read and the write: look again now.
        if (!moved) return { state: 'waiting', outcome: 'stale', retryInMs: 0 };
        if (m.about === 'transfer' && m.shortOfFunds && moved.status === 'FAILED')
          this.d.provider.balanceRefused(row.accountId);
        this.d.metrics.toTerminal.observe({ to: step.to }, (Date.now() - w.receivedAt.getTime()) / 1000);
        return done('applied');
      }
      case 'recheck': {
        const due = await this.d.payouts.checkNow(this.d.pool, row.id);
        this.d.logger.info({ ...log, why: step.why }, 'webhook: not applied; the payout is checked now');
        return due ? done('recheck') : this.later(w, 'recheck_busy');
      }
      case 'reopen': {
        const reopened = await this.d.ledger.reopen(row, `webhook_${w.event.toLowerCase()}`, 'webhook');
        return reopened ? done('reopened') : { state: 'waiting', outcome: 'stale', retryInMs: 0 };
      }
      case 'contradicted':
        return this.contradicted(w, row, step.observed, evidence);
      case 'wait':
        return this.later(w, 'waiting');
      case 'nothing':
        if (step.why === 'backwards') {
          this.d.logger.info(log, 'webhook: would move the payout backwards; ignored');
        } else if (step.why === 'no_status_endpoint') {
          this.d.logger.warn(
            { ...log, kind: row.kind },
            'webhook: its payout has no status endpoint to ask, and a webhook alone settles nothing; recorded, not applied',
          );
        } else if (step.why === 'reopen_limited') {
          this.d.logger.warn(
            { ...log, limit: this.s.reopenLimit, periodMs: this.s.reopenPeriodMs },
            'webhook: this payout was reopened by webhooks as often as allowed in the period; recorded, not applied',
          );
        }
        return done(step.why);
    }
  }

  /**
   * A sub-state the provider announced (issue 29: approved): PENDING -> PENDING through the ledger
   * (an event), never a status; the provider is asked now, and its status check goes on from there.
   */
  private async subStateChange(
    w: WebhookRow,
    row: PayoutRow,
    subState: ProviderSubState,
  ): Promise<Settlement> {
    const moved = await this.d.ledger.change(
      {
        row,
        to: 'PENDING',
        fields: { subState, nextCheckAt: new Date() },
        log: { webhookId: w.id, event: w.event, subState },
      },
      'webhook',
    );
    return moved ? done('sub_state') : { state: 'waiting', outcome: 'stale', retryInMs: 0 };
  }

  /**
   * The webhook contradicts the payout's published terminal state (ADR 0018): the payout is
   * checked now where it can be (the status check records the contradiction if the provider
   * confirms it); a v2 webhook about a kind without a status endpoint raises it through the
   * ledger; a v1 one about such a kind is logged and counted only (it can be re-aimed).
   */
  private async contradicted(
    w: WebhookRow,
    row: PayoutRow,
    observed: PayoutStatus,
    evidence: string | undefined,
  ): Promise<Settlement> {
    const log = { webhookId: w.id, event: w.event, transferId: row.transferId, status: row.status, observed };
    switch (onContradiction(row, w.apiVersion)) {
      case 'check': {
        const due = await this.d.payouts.watchNow(this.d.pool, row.id);
        this.d.logger.warn(
          log,
          'webhook contradicts the published terminal state; the payout is checked now',
        );
        return due ? done('contradiction_check') : this.later(w, 'recheck_busy');
      }
      case 'raise':
        await this.d.ledger.contradict({ row, observed, observedCode: evidence ?? null }, 'webhook');
        return done('contradiction');
      case 'ignore':
        this.d.logger.warn(log, 'v1 webhook contradicts a payout that cannot be checked; not believed alone');
        return done('contradiction_unverified');
    }
  }

  /**
   * A batch or one of its entries: one status call covers every entry, so the batch is checked
   * now rather than an entry being written from the webhook (ADR 0013).
   */
  private async batchHint(w: WebhookRow, m: WebhookMeaning, batch: BatchRow): Promise<Settlement> {
    // An entry's acknowledgement announces no state: no reason to spend a check on it.
    if (m.about === 'transfer' && m.announces === null) return done('no_state');
    if (batch.status === 'RECEIVED') return this.later(w, 'waiting');
    // A COMPLETED batch is asked again only while its negative entries are watched (issue 29).
    const watched = batch.status === 'COMPLETED';
    if (!watched && !['SUBMITTING', 'PROCESSING', 'UNKNOWN'].includes(batch.status))
      return done('same_state');
    const due = await this.d.batches.checkNow(this.d.pool, batch.id);
    if (!due) return watched ? done('same_state') : this.later(w, 'waiting');
    this.d.logger.info(
      { webhookId: w.id, event: w.event, batchTransferId: batch.batchTransferId, transferId: w.transferId },
      'webhook: the batch is checked now',
    );
    return done('recheck_batch');
  }

  /** Its payout cannot take it yet: again soon, until it has waited too long. */
  private later(w: WebhookRow, outcome: string): Settlement {
    if (Date.now() - w.receivedAt.getTime() > this.s.giveUpMs) {
      this.d.logger.warn(
        { webhookId: w.id, event: w.event, transferId: w.transferId },
        'webhook: waited too long for its payout; dropped (the reconciler polls it)',
      );
      return done('expired');
    }
    return { state: 'waiting', outcome, retryInMs: this.s.retryMs };
  }

  /** No payout nor batch entry has its transferId: kept, counted, matched again for a while. */
  private unmatched(w: WebhookRow): Settlement {
    if (w.state !== 'unmatched') {
      this.d.metrics.unmatched.inc();
      this.d.logger.warn(
        {
          webhookId: w.id,
          event: w.event,
          transferId: w.transferId,
          batchTransferId: w.batchTransferId,
          accountId: w.accountId,
        },
        'webhook for a transfer this service does not know; kept and matched again later',
      );
    }
    if (Date.now() - w.receivedAt.getTime() > this.s.unmatchedKeepMs) return done('unmatched');
    return { state: 'unmatched', outcome: 'unmatched', retryInMs: this.s.unmatchedRetryMs };
  }

  /** A notice is an event of its own, written with the webhook's settlement in one transaction. */
  private async publishNotice(w: WebhookRow, notice: ProviderNotice): Promise<void> {
    const event = providerNoticeEvent(w.accountId, notice, w.identity, w.eventTime ?? w.receivedAt);
    await inTransaction(this.d.pool, async (c) => {
      await this.d.outbox.enqueue(c, [event]);
      await this.d.webhooks.settle(c, w.id, 'done', 'notice', null);
    });
    this.d.metrics.notices.inc({ type: PROVIDER_NOTICES[notice] });
    this.d.metrics.hints.inc({ outcome: 'notice' });
    this.d.logger.warn({ accountId: w.accountId, notice, webhookId: w.id }, 'provider notice received');
  }

  /** Settled webhooks past the retention are deleted, at most once a minute. */
  private async purge(): Promise<void> {
    if (Date.now() - this.lastPurge < 60_000) return;
    this.lastPurge = Date.now();
    const n = await this.d.webhooks.purgeDone(this.d.pool, this.s.retentionMs, 1_000);
    if (n > 0) this.d.logger.info({ deleted: n }, 'webhook worker: settled webhooks past retention deleted');
  }
}

/** The ledger's notice for the connector's notice kind. */
function noticeOf(kind: ProviderNoticeKind): ProviderNotice | undefined {
  return (Object.keys(PROVIDER_NOTICES) as ProviderNotice[]).find((n) => PROVIDER_NOTICES[n] === kind);
}
