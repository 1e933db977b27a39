import { setTimeout as sleep } from 'node:timers/promises';
import { type PayoutLedger, type PayoutRow } from '#ledger';
import { type AppLogger, type PollOutcome, Poller, type WorkerMetricsPort } from '#observability';
import { type PayoutSubmission } from '../shared/payout-submission.js';
import {
  FUNDS_PAYOUT_WINDOW,
  type FundsHoldPort,
  HELD_LOOK_MIN_MS,
  HeldAccounts,
  UnheldHolds,
} from '../shared/held-accounts.js';

export interface ExecutorSettings {
  readonly owner: string;
  readonly concurrency: number;
  readonly leaseMs: number;
  readonly idlePollMs: number;
}

export interface ExecutorDeps {
  ledger: PayoutLedger;
  logger: AppLogger;
  /** Counts failed claims (payouts_worker_failures_total{worker="executor"}). */
  workerMetrics?: WorkerMetricsPort;
  /**
   * The accounts in FUNDS_HOLD (ADR 0027): theirs are sent only by the funds-aware claim. None
   * (or no account): the claim is today's, unchanged.
   */
  fundsHold?: FundsHoldPort;
}

/**
 * Executes RECEIVED payouts. Claims rows under SKIP LOCKED with a lease and marks them SUBMITTING
 * (with its event) in a committed transaction BEFORE the provider call; then records the outcome
 * and its event in one transaction. The lease is renewed while the call runs (LeaseKeeper); a
 * crash in between leaves a SUBMITTING row whose lease expires, and the reconciler asks the
 * provider about it before any re-send.
 */
export class PayoutExecutor {
  private inFlight = 0;
  private readonly poller: Poller;
  /** The accounts in FUNDS_HOLD and which of them are due; undefined: holding off. */
  private readonly held: HeldAccounts | undefined;
  /** Whether the held accounts' rounds go first in the next round that has both (alternating). */
  private fundsFirst = true;
  /** When to look for payouts held by accounts no longer in FUNDS_HOLD. */
  private readonly unheld: UnheldHolds;
  /**
   * With accounts held: when the other accounts' claim last found fewer than it asked for (none
   * left); it waits for intake's wake or an idle poll then, as the loop does without held accounts,
   * rather than run in the busy loop of the held accounts' rounds (its exclusion walks their rows).
   */
  private othersDrainedAt: number | undefined;

  constructor(
    private readonly d: ExecutorDeps,
    private readonly s: ExecutorSettings,
    private readonly submission: PayoutSubmission,
  ) {
    this.held =
      d.fundsHold && d.fundsHold.accountIds.length > 0
        ? new HeldAccounts(d.fundsHold, s.idlePollMs)
        : undefined;
    this.unheld = new UnheldHolds(s.idlePollMs);
    this.poller = new Poller({
      name: 'executor',
      logger: d.logger,
      metrics: d.workerMetrics,
      step: () => this.step(),
      pollMs: s.idlePollMs,
      failureMessage: 'executor: claim failed; retrying',
    });
  }

  start(): void {
    this.poller.start();
  }

  /**
   * Intake calls this after a commit, so new work starts without waiting for the poll; the held
   * accounts are looked at again too (new payouts of theirs wait to be decided): `accounts`, those
   * with new payouts (a held one with room at once: HeldAccounts.arrived); without them (another
   * process's intake, heard through Postgres), every held account after an idle poll.
   */
  wake(accounts?: readonly string[]): void {
    const held = this.held;
    if (accounts) held?.arrived(accounts);
    else held?.wakeAll();
    // The other accounts' claim, which found nothing lately, is tried again when new payouts may
    // be theirs (not when they are all of held accounts).
    if (!held || !accounts || accounts.some((a) => !held.ids.includes(a))) this.othersDrainedAt = undefined;
    this.poller.wake();
  }

  /**
   * Stops claiming. Resolves once the claim loop has ended and, unless `untilClaimsEnd`, once
   * the calls in flight have recorded their outcomes (the service's shutdown drains those itself,
   * under a deadline, through PayoutSubmission).
   */
  async stop(untilClaimsEnd = false): Promise<void> {
    await this.poller.stop();
    if (untilClaimsEnd) return;
    while (this.inFlight > 0) await sleep(10);
  }

  /**
   * The provider's balance of the account was read anew (the balance reader): its held payouts
   * are looked at in the next round, at once.
   */
  fundsChanged(accountId: string): void {
    if (this.held?.wake(accountId)) this.poller.wake();
  }

  /**
   * One round, as many rows as there are free slots. Fewer rows than asked for: none is left now,
   * so wait for a wake (kept if one came during the claim) or the poll, rather than spend a
   * transaction finding nothing; all slots busy: wait for one to free (it wakes the poller).
   *
   * With accounts in FUNDS_HOLD, the claim of the others leaves them out, and each held account
   * that is due (HeldAccounts) has its funds-aware round. When both want the free slots (new
   * payouts of other accounts came in), the rounds alternate which goes first, so a saturating
   * load of other accounts never starves a held one (nor the other way round); a held account left
   * without slots stays due. The others' claim, once it found nothing, is tried again after an
   * idle poll only with the slots the held rounds left, and at least every HELD_LOOK_MIN_MS (what
   * no wake announces, an approval, is found so), not ahead of a held account's rounds every poll.
   */
  private async step(): Promise<PollOutcome> {
    const free = this.s.concurrency - this.inFlight;
    if (free <= 0) return 'idle';
    const held = this.held;
    const due = held?.due() ?? [];
    let left = free;
    let more = false;
    if (this.unheld.due()) {
      // Held for funds by an account FUNDS_HOLD no longer names: sent as today's claim sends.
      const rows = await this.d.ledger.claimHeldOfUnheld(this.s.owner, this.s.leaseMs, left, held?.ids ?? []);
      this.unheld.looked(rows.length, left);
      this.dispatch(rows);
      more ||= rows.length === left;
      left -= rows.length;
      if (left <= 0) return this.inFlight < this.s.concurrency ? 'busy' : 'idle';
    }
    const drained = this.othersDrainedAt;
    const sinceDrained = drained === undefined ? Infinity : Date.now() - drained;
    const others = async (): Promise<void> => {
      if (left <= 0) return;
      if (held && sinceDrained < this.s.idlePollMs) return;
      const n = await this.claimAndDispatch(left, held?.ids ?? []);
      if (held) this.othersDrainedAt = n < left ? Date.now() : undefined;
      more ||= n === left;
      left -= n;
    };
    const funds = async (): Promise<void> => {
      for (const accountId of due) {
        if (left <= 0) return;
        const r = await this.claimFunded(accountId, left);
        left -= r.sent;
        more ||= r.slotBound;
      }
    };
    if (due.length === 0) await others();
    else if (sinceDrained < HELD_LOOK_MIN_MS) {
      // The others found nothing lately: the held rounds first, the others with what is left.
      await funds();
      await others();
    } else {
      const fundsFirst = this.fundsFirst;
      this.fundsFirst = !fundsFirst;
      if (fundsFirst) {
        await funds();
        await others();
      } else {
        await others();
        await funds();
      }
    }
    return more && this.inFlight < this.s.concurrency ? 'busy' : 'idle';
  }

  private async claimAndDispatch(limit: number, exceptAccounts: readonly string[]): Promise<number> {
    const rows =
      exceptAccounts.length === 0
        ? await this.d.ledger.claimForSubmission(this.s.owner, this.s.leaseMs, limit)
        : await this.d.ledger.claimForSubmission(this.s.owner, this.s.leaseMs, limit, exceptAccounts);
    this.dispatch(rows);
    return rows.length;
  }

  /** One held account's round: its verdicts applied by the ledger, what fits sent now. */
  private async claimFunded(accountId: string, slots: number): Promise<{ sent: number; slotBound: boolean }> {
    const held = this.held!;
    held.looking(accountId);
    const r = await this.d.ledger.claimWithFunds({
      accountId,
      owner: this.s.owner,
      leaseMs: this.s.leaseMs,
      slots,
      window: FUNDS_PAYOUT_WINDOW,
      decide: held.decide(accountId),
      room: held.room(accountId),
      fee: held.fee(accountId),
    });
    held.looked(accountId, r);
    this.dispatch(r.sent);
    return { sent: r.sent.length, slotBound: r.slotBound };
  }

  private dispatch(rows: readonly PayoutRow[]): void {
    for (const row of rows) {
      this.inFlight++;
      void this.submission.run(row).finally(() => {
        this.inFlight--;
        this.poller.wake();
      });
    }
  }
}
