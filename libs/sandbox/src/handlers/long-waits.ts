import { nextWorkingDayOpening } from '../core/calendar.js';
import { debitOf } from '../core/fees.js';
import { type Paise } from '../core/money.js';
import {
  stepAt,
  type AccountState,
  type ApprovalCode,
  type Held,
  type Step,
  type TransferRecord,
} from '../core/state.js';
import { type Outcome } from '../core/test-data.js';
import { type SandboxWorld } from '../core/world.js';
import { APPROVED } from '../webhooks/transfer-events.js';

/**
 * The provider's long waits (provider-facts.md, "Long waits, balance and approvals"): status
 * ERROR before a payment, low-balance queuing, approval in the dashboard, the next working day
 * and a reversal days later. Shared by v1 and v2 transfers (docs/SANDBOX.md, "Long waits").
 */

/** The approval outcomes of the test accounts and their status_code under APPROVAL_PENDING. */
const APPROVAL_OUTCOMES: Partial<Record<Outcome, ApprovalCode>> = {
  approvalPending: 'APPROVAL_PENDING',
  velocityCheck: 'VELOCITY_CHECK_FAILED',
  limitBreach: 'TRANSFER_LIMIT_BREACH',
  anomaly: 'ANOMALY_DETECTION',
};

/** v1's reason for a transfer in status ERROR (the interface's ERROR/201 row). */
export const NO_RESPONSE_REASON = 'Transfer triggered, no response from bank';
/** The reason and status_code of a transfer queued for balance. */
export const QUEUED = 'QUEUED';
/** How a rejection in the dashboard reads (status REJECTED). */
export const REJECTION_CODES = ['MANUALLY_REJECTED', 'REJECTED'] as const;
export type RejectionCode = (typeof REJECTION_CODES)[number];

export function isApprovalOutcome(outcome: Outcome): boolean {
  return APPROVAL_OUTCOMES[outcome] !== undefined;
}

const approvalStep = (at: number, code: ApprovalCode): Step => ({
  at,
  status: 'APPROVAL_PENDING',
  statusCode: code,
  reason: code,
});

/**
 * Steps of the long-wait outcomes, from now; `succeed(at)` is the generation's success (v1 one
 * step, v2 SENT_TO_BENEFICIARY then COMPLETED). Undefined for the other outcomes.
 */
export function longWaitSteps(
  world: SandboxWorld,
  outcome: Outcome,
  succeed: (at: number) => Step[],
): Step[] | undefined {
  const t0 = world.clock.now();
  switch (outcome) {
    case 'errorThenSuccess':
      return [
        {
          at: t0,
          status: 'PENDING',
          statusCode: 'SENT_TO_BANK',
          reason: NO_RESPONSE_REASON,
          v1Status: 'ERROR',
        },
        ...succeed(t0 + world.pendingDelayMs),
      ];
    case 'nextWorkingDay': {
      const code = 'SCHEDULED_FOR_NEXT_WORKINGDAY';
      return [
        { at: t0, status: 'PENDING', statusCode: code, reason: code },
        ...succeed(nextWorkingDayOpening(world.calendar, t0)),
      ];
    }
    case 'queuedUntilFunded':
      // What it does once a top-up sends it (it is queued first: `holdTransfer`).
      return succeed(t0);
    case 'lateReversal': {
      const paid = succeed(t0);
      const at = Math.max(t0 + world.lateReversalMs, ...paid.map((s) => s.at));
      const code = 'ACCOUNT_FROZEN_OR_CLOSED';
      return [...paid, { at, status: 'REVERSED', statusCode: code, reason: code }];
    }
    default: {
      const code = APPROVAL_OUTCOMES[outcome];
      return code ? [approvalStep(t0, code)] : undefined;
    }
  }
}

/** Held for approval: the approval test accounts, or every transfer of a merchant that requires it. */
function approvalHold(
  world: SandboxWorld,
  outcome: Outcome,
  planned: () => Step[],
  succeed: (at: number) => Step[],
): Held {
  if (isApprovalOutcome(outcome)) return { steps: planned(), replan: () => succeed(world.clock.now()) };
  const code = world.account.flags.approvalRequired;
  if (code !== '') return { steps: [approvalStep(world.clock.now(), code)], replan: planned };
  return { steps: planned() };
}

/**
 * Whether a transfer joins the low-balance queue: the queued-until-funded test account always;
 * others on a merchant that opted in (`queueOnLowBalance`) when the balance cannot fund their
 * debit (amount and fee) or another transfer is queued (first come, first funded).
 */
export function mustQueue(account: AccountState, outcome: Outcome, debit: Paise, now: number): boolean {
  if (outcome === 'queuedUntilFunded') return true;
  if (!account.flags.queueOnLowBalance) return false;
  return account.balance < debit || account.queue.some((t) => stepAt(t, now).status === 'QUEUED');
}

export interface Hold extends Held {
  /** Queued for balance: nothing debited yet; what it becomes once funded. */
  readonly release?: () => Held;
}

/**
 * The steps of a transfer about to be debited `debit` (amount and fee): queued for balance
 * (`queueOnLowBalance` and the balance cannot fund it), held for approval, or what its outcome plans.
 */
export function holdTransfer(
  world: SandboxWorld,
  outcome: Outcome,
  debit: Paise,
  planned: () => Step[],
  succeed: (at: number) => Step[],
): Hold {
  const account = world.account;
  const t0 = world.clock.now();
  const inner = (): Held => approvalHold(world, outcome, planned, succeed);
  if (!mustQueue(account, outcome, debit, t0)) return inner();
  const expired = 'INSUFFICIENT_BALANCE';
  return {
    steps: [
      { at: t0, status: 'QUEUED', statusCode: QUEUED, reason: QUEUED },
      { at: t0 + account.flags.queueMaxMs, status: 'FAILED', statusCode: expired, reason: expired },
    ],
    release: inner,
  };
}

/** Records what a hold makes of a new transfer: debited unless queued. */
export function applyHold(record: TransferRecord, hold: Hold): void {
  record.replan = hold.replan;
  record.release = hold.release;
}

/**
 * Sends queued transfers the balance can now fund, oldest first (stopping at the first it cannot):
 * each is debited and takes its planned steps from now. Returns their ids.
 */
export function releaseQueue(world: SandboxWorld): string[] {
  const account = world.account;
  account.settle();
  const released: string[] = [];
  while (account.queue.length > 0) {
    const now = world.clock.now();
    const t = account.queue[0];
    if (!t) break;
    if (stepAt(t, now).status !== 'QUEUED' || !t.release) {
      account.queue.shift(); // expired (FAILED) meanwhile
      continue;
    }
    if (account.balance < debitOf(t)) break;
    account.queue.shift();
    const next = t.release();
    t.release = undefined;
    t.replan = next.replan;
    t.debited = true;
    account.balance -= debitOf(t);
    account.replaceFuture(t, next.steps);
    released.push(t.transferId);
  }
  return released;
}

export class LongWaitError extends Error {
  constructor(
    readonly http: 404 | 409,
    message: string,
  ) {
    super(message);
  }
}

function waitingForApproval(world: SandboxWorld, transferId: string): TransferRecord {
  const t = world.account.transfers.get(transferId);
  if (!t) throw new LongWaitError(404, `transferId: no transfer ${JSON.stringify(transferId)}`);
  if (stepAt(t, world.clock.now()).status !== 'APPROVAL_PENDING' || !t.replan)
    throw new LongWaitError(409, `transferId: ${JSON.stringify(transferId)} is not waiting for approval`);
  return t;
}

/**
 * The approval in the dashboard: PENDING / APPROVED now (a TRANSFER_APPROVED webhook), then what
 * the transfer was going to do, `pendingDelayMs` later.
 */
export function approveTransfer(world: SandboxWorld, transferId: string): TransferRecord {
  const t = waitingForApproval(world, transferId);
  const now = world.clock.now();
  const delay = world.pendingDelayMs;
  const next = (t.replan?.() ?? []).map((s) => ({ ...s, at: s.at + delay }));
  t.replan = undefined;
  world.account.replaceFuture(t, [
    { at: now, status: 'PENDING', statusCode: APPROVED, reason: APPROVED },
    ...next,
  ]);
  return t;
}

/** The rejection in the dashboard: REJECTED now (a TRANSFER_REJECTED webhook), the money returned. */
export function rejectTransfer(world: SandboxWorld, transferId: string, code: RejectionCode): TransferRecord {
  const t = waitingForApproval(world, transferId);
  t.replan = undefined;
  world.account.replaceFuture(t, [
    { at: world.clock.now(), status: 'REJECTED', statusCode: code, reason: code },
  ]);
  return t;
}
