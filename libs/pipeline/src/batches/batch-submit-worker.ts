import { type BatchLedger, type BatchRow } from '#ledger';
import { type AppLogger, Poller, type PollOutcome, type WorkerMetricsPort } from '#observability';
import { type BatchSubmission } from './batch-submission.js';
import {
  FUNDS_BATCH_WINDOW,
  type FundsHoldPort,
  HeldAccounts,
  UnheldHolds,
} from '../shared/held-accounts.js';

export interface BatchSubmitWorkerDeps {
  ledger: BatchLedger;
  submission: BatchSubmission;
  logger: AppLogger;
  /** Counts failed rounds (payouts_worker_failures_total{worker="batch_submit"}). */
  workerMetrics?: WorkerMetricsPort;
  /** The accounts in FUNDS_HOLD (ADR 0027): their batches are sent only by the funds-aware claim. */
  fundsHold?: FundsHoldPort;
}

export interface BatchSubmitWorkerSettings {
  readonly owner: string;
  readonly leaseMs: number;
  readonly idlePollMs: number;
  /** Batches claimed per round: a batch call is slow (hundreds of entries). */
  readonly perRound: number;
}

/**
 * Claims RECEIVED batches (RECEIVED to SUBMITTING, with a lease, committed before the call) and
 * sends them, from a loop of its own: a batch call is slow and must not hold up single payouts.
 * The batches of accounts in FUNDS_HOLD go through the funds-aware claim (ADR 0027), as payouts
 * do in the executor: held or sent whole, looked at when due (HeldAccounts), rounds alternating
 * with the claim of the other accounts.
 */
export class BatchSubmitWorker {
  private readonly poller: Poller;
  private readonly held: HeldAccounts | undefined;
  private fundsFirst = true;
  /** When to look for batches held by accounts no longer in FUNDS_HOLD. */
  private readonly unheld: UnheldHolds;

  constructor(
    private readonly d: BatchSubmitWorkerDeps,
    private readonly s: BatchSubmitWorkerSettings,
  ) {
    this.held =
      d.fundsHold && d.fundsHold.accountIds.length > 0
        ? new HeldAccounts(d.fundsHold, s.idlePollMs)
        : undefined;
    this.unheld = new UnheldHolds(s.idlePollMs);
    this.poller = new Poller({
      name: 'batch_submit',
      logger: d.logger,
      metrics: d.workerMetrics,
      step: () => this.step(),
      pollMs: s.idlePollMs,
      failureMessage: 'batch submission failed; retrying',
    });
  }

  start(): void {
    this.poller.start();
  }

  /**
   * Intake calls this after a commit, so a new batch starts without waiting for the poll;
   * `accounts`: those with new batches (as PayoutExecutor.wake).
   */
  wake(accounts?: readonly string[]): void {
    if (accounts) this.held?.arrived(accounts);
    else this.held?.wakeAll();
    this.poller.wake();
  }

  /** The provider's balance of the account was read anew: its held batches are looked at now. */
  fundsChanged(accountId: string): void {
    if (this.held?.wake(accountId)) this.poller.wake();
  }

  /** Stops claiming; resolves once the round in progress (its sends included) has ended. */
  async stop(): Promise<void> {
    await this.poller.stop();
  }

  /** Claims RECEIVED batches and submits them. Returns how many it claimed. */
  async submitDue(limit: number): Promise<number> {
    const except = this.held?.ids ?? [];
    const claimed =
      except.length === 0
        ? await this.d.ledger.claimForSubmission(this.s.owner, this.s.leaseMs, limit)
        : await this.d.ledger.claimForSubmission(this.s.owner, this.s.leaseMs, limit, except);
    await this.send(claimed);
    return claimed.length;
  }

  /**
   * One round: the other accounts' claim and each due held account's funds-aware round, sharing
   * `perRound`, alternating which goes first; busy while either found work.
   */
  private async step(): Promise<PollOutcome> {
    const held = this.held;
    let left = this.s.perRound;
    let more = false;
    if (this.unheld.due()) {
      // Held for funds by an account FUNDS_HOLD no longer names: sent as today's claim sends.
      const rows = await this.d.ledger.claimHeldOfUnheld(this.s.owner, this.s.leaseMs, left, held?.ids ?? []);
      this.unheld.looked(rows.length, left);
      await this.send(rows);
      more = rows.length > 0;
      left -= rows.length;
      if (left <= 0) return 'busy';
    }
    const due = held?.due() ?? [];
    if (due.length === 0) return (await this.submitDue(left)) === 0 && !more ? 'idle' : 'busy';
    const others = async (): Promise<void> => {
      if (left <= 0) return;
      const n = await this.submitDue(left);
      more ||= n > 0;
      left -= n;
    };
    const funds = async (): Promise<void> => {
      for (const accountId of due) {
        if (left <= 0) return;
        held!.looking(accountId);
        const r = await this.d.ledger.claimWithFunds({
          accountId,
          owner: this.s.owner,
          leaseMs: this.s.leaseMs,
          slots: left,
          window: FUNDS_BATCH_WINDOW,
          decide: held!.decide(accountId),
          fee: held!.fee(accountId),
        });
        held!.looked(accountId, r);
        await this.send(r.sent);
        left -= r.sent.length;
        more ||= r.sent.length > 0 || r.slotBound;
      }
    };
    const fundsFirst = this.fundsFirst;
    this.fundsFirst = !fundsFirst;
    if (fundsFirst) {
      await funds();
      await others();
    } else {
      await others();
      await funds();
    }
    return more ? 'busy' : 'idle';
  }

  private async send(batches: readonly BatchRow[]): Promise<void> {
    await Promise.all(batches.map((b) => this.d.submission.submit(b)));
  }
}
