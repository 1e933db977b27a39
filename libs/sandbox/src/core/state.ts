import { type SandboxClock } from './clock.js';
import { type Paise } from './money.js';
import { type ResendRefusal } from './faults.js';
import { debitOf, feeOf, type TransferFee } from './fees.js';
import { type EndpointId } from './settings.js';

/**
 * The provider's transfer statuses (v2 words). v1 shows QUEUED and APPROVAL_PENDING as PENDING
 * (`legacyStatusOf`): its status page documents neither.
 */
export type TransferStatus =
  'RECEIVED' | 'PENDING' | 'QUEUED' | 'APPROVAL_PENDING' | 'SUCCESS' | 'FAILED' | 'REJECTED' | 'REVERSED';

export interface Step {
  readonly at: number;
  readonly status: TransferStatus;
  readonly statusCode: string;
  readonly reason: string;
  /** What v1 shows instead of `status` (ERROR: "Transfer triggered; no response from bank"). */
  readonly v1Status?: 'ERROR';
}

export interface TransferRecord {
  readonly transferId: string;
  readonly referenceId: string;
  readonly svcTransferId: string;
  readonly endpoint: EndpointId;
  readonly amount: Paise;
  readonly mode: string;
  readonly beneId: string;
  readonly bankAccount: string;
  readonly ifsc: string;
  readonly vpa: string;
  readonly phone: string;
  readonly remarks: string;
  readonly paymentInstrumentId: string;
  readonly addedOn: number;
  readonly steps: Step[];
  /** The provider's fee, taken with the amount while debited (payouts; none on internal transfers). */
  readonly fee?: TransferFee;
  utr: string;
  /** The debit (amount and fee) was given back (FAILED, REJECTED or REVERSED reached). */
  refunded: boolean;
  /** The debit was taken. */
  debited: boolean;
  /** The status endpoints answer "not found" before this (a `statusLagMs` fault). */
  visibleAt?: number;
  /** Bumped when its future steps are replaced (funded, approved, rejected): old watchers stop. */
  revision?: number;
  /** Waiting for approval: the steps it takes from now once approved. */
  replan?: (() => Step[]) | undefined;
  /** Queued for balance: what it becomes once funded (its steps, and an approval still to come). */
  release?: (() => Held) | undefined;
}

/** The steps of a transfer held back, and what an approval would make of it. */
export interface Held {
  readonly steps: Step[];
  readonly replan?: (() => Step[]) | undefined;
}

export interface Beneficiary {
  readonly beneId: string;
  readonly name: string;
  readonly email: string;
  readonly phone: string;
  readonly address1: string;
  readonly bankAccount: string;
  readonly ifsc: string;
  readonly vpa: string;
  readonly city: string;
  readonly state: string;
  readonly pincode: string;
  /** v2 `beneficiary_country_code`; v1 has none. */
  readonly countryCode?: string;
  readonly addedAt: number;
}

export interface AccountFlags {
  /** Endpoints answering 403 "APIs not enabled". */
  apisDisabled: EndpointId[];
  /** Endpoints answering 403 "Feature not available" / "Permission denied". */
  featureDisabled: EndpointId[];
  /** Modes answering "Transfer mode is not enabled for the account" (412/400) and batch 422. */
  disabledModes: string[];
  /** Modes answering 403 "Transfer mode not available for the account" (directTransfer). */
  unavailableModes: string[];
  /** When true, a transfer without paymentInstrumentId is refused (several instruments). */
  multipleInstruments: boolean;
  /** Daily cap per beneficiary / per account, decimal strings; empty = none. */
  beneficiaryDailyLimit: string;
  accountDailyLimit: string;
  /**
   * Low-balance queuing (opt in): a transfer the balance cannot fund is held QUEUED, sent once a
   * top-up funds it, FAILED / INSUFFICIENT_BALANCE after `queueMaxMs` (provider: 1 h to 10 days).
   */
  queueOnLowBalance: boolean;
  queueMaxMs: number;
  /** Every transfer waits for approval in the dashboard with this status_code; '' for none. */
  approvalRequired: '' | ApprovalCode;
}

/** The status codes the provider lists under APPROVAL_PENDING (v2 Get Transfer Status). */
export const APPROVAL_CODES = [
  'APPROVAL_PENDING',
  'VELOCITY_CHECK_FAILED',
  'TRANSFER_LIMIT_BREACH',
  'ANOMALY_DETECTION',
] as const;
export type ApprovalCode = (typeof APPROVAL_CODES)[number];

/** The provider's default queue time for low-balance transfers: 4 days. */
export const DEFAULT_QUEUE_MAX_MS = 4 * 24 * 60 * 60_000;

export interface ReceivedInitiation {
  /** The merchant account (client id) that sent it. */
  readonly account: string;
  readonly endpoint: EndpointId;
  readonly transferId: string;
  readonly accepted: boolean;
  readonly answer: string;
  readonly at: number;
}

/**
 * A payout refused because the merchant's available balance could not fund it (its amount and fee):
 * the balance check itself, never a fault (`refuseResend: "insufficient_balance"` is not one), so a
 * run can tell that nothing it held for funds was bounced (`GET /__sandbox/balance/refusals`).
 */
export interface BalanceRefusal {
  /** The merchant account (client id). */
  readonly account: string;
  readonly endpoint: EndpointId;
  readonly transferId: string;
  readonly at: number;
  /** What it would have taken (amount and fee), and the available balance then, in paise. */
  readonly debit: Paise;
  readonly available: Paise;
}

export interface BatchRecord {
  readonly batchTransferId: string;
  readonly referenceId: number;
  /** v1: the batchFormat; v2 batches: `V2_BATCH_FORMAT` (entries in the v2 transfer shape). */
  readonly format: string;
  readonly entries: readonly Record<string, unknown>[];
  readonly addedOn: number;
  readonly processAt: number;
  processed: boolean;
  readonly results: BatchEntryResult[];
  /** The batch status endpoint answers "not found" before this (a `statusLagMs` fault). */
  visibleAt?: number;
}

export interface BatchEntryResult {
  readonly entry: Readonly<Record<string, unknown>>;
  readonly transferId: string;
  /** Absent when the entry was refused; `reason` then says why. */
  readonly record: TransferRecord | undefined;
  readonly reason: string;
  /** v2 batches: the refusal's error code (shown as the entry's status_code). */
  readonly code?: string;
}

export function defaultFlags(): AccountFlags {
  return {
    apisDisabled: [],
    featureDisabled: [],
    disabledModes: [],
    unavailableModes: [],
    multipleInstruments: false,
    beneficiaryDailyLimit: '',
    accountDailyLimit: '',
    queueOnLowBalance: false,
    queueMaxMs: DEFAULT_QUEUE_MAX_MS,
    approvalRequired: '',
  };
}

/** Told about changes as they happen (the webhook side listens). */
export interface AccountListener {
  /** A new transfer (`from` absent), or one whose steps from index `from` on were replaced. */
  transferRecorded(t: TransferRecord, from?: number): void;
  balanceChanged(before: Paise, after: Paise): void;
}

/** One merchant account: balance, flags and everything it has sent. All in memory. */
export class AccountState {
  private current: Paise;
  flags: AccountFlags = defaultFlags();
  readonly transfers = new Map<string, TransferRecord>();
  readonly byReference = new Map<string, TransferRecord>();
  readonly bySvcId = new Map<string, TransferRecord>();
  /**
   * Internal transfers, known to the legacy getTransferStatus. Kept apart from `transfers`: the
   * provider does not deduplicate them, and they are outside the transfer limits.
   */
  readonly internalTransfers = new Map<string, TransferRecord>();
  readonly beneficiaries = new Map<string, Beneficiary>();
  readonly batches = new Map<string, BatchRecord>();
  /**
   * Transfer ids of entries of batches accepted but not processed yet: the provider has one
   * namespace of transfer ids per merchant, so a single transfer cannot take them meanwhile.
   */
  readonly batchEntryIds = new Map<string, BatchRecord>();
  readonly withdrawals: { readonly withdrawalId: string; readonly at: number }[] = [];
  readonly received: ReceivedInitiation[] = [];
  /** Payouts the balance check refused (insufficient balance), oldest first. */
  readonly balanceRefusals: BalanceRefusal[] = [];
  /** Ids (by `initiationKey(endpoint, id)`) whose re-sends are refused this way (`refuseResend`). */
  readonly refuseResend = new Map<string, ResendRefusal>();
  /** Transfers with a step still in the future; settled lazily. */
  readonly unsettled = new Set<TransferRecord>();
  /** Transfers held QUEUED for balance, oldest first (low-balance queuing). */
  readonly queue: TransferRecord[] = [];
  private nextReference = 100_000;

  constructor(
    readonly clientId: string,
    initialBalance: Paise,
    private readonly clock: SandboxClock,
    private readonly listener?: AccountListener,
    /** The provider's reference ids are unique across its merchants: a shared counter. */
    private readonly sharedReference?: () => number,
    /** The service charge per payout (docs/SANDBOX.md, "Balance and fees"); 0: none. */
    public transferCharge: Paise = 0n,
  ) {
    this.current = initialBalance;
  }

  /** The fee a payout made now carries. */
  fee(): TransferFee {
    return feeOf(this.transferCharge);
  }

  /** The available balance: what the provider can still fund (every accepted payout's debit taken). */
  get balance(): Paise {
    return this.current;
  }

  set balance(value: Paise) {
    const before = this.current;
    this.current = value;
    if (value !== before) this.listener?.balanceChanged(before, value);
  }

  newReferenceId(): number {
    if (this.sharedReference) return this.sharedReference();
    this.nextReference += 1;
    return this.nextReference;
  }

  /** A transfer has this id, or an entry of a batch not processed yet does (one namespace). */
  transferIdTaken(id: string): boolean {
    return this.transfers.has(id) || this.batchEntryIds.has(id);
  }

  addTransfer(t: TransferRecord): void {
    this.transfers.set(t.transferId, t);
    this.byReference.set(t.referenceId, t);
    this.bySvcId.set(t.svcTransferId, t);
    if (t.steps.some((s) => s.at > this.clock.now())) this.unsettled.add(t);
    this.settleOne(t, this.clock.now());
    this.listener?.transferRecorded(t);
  }

  /**
   * Replaces the steps after now with `next` (funded, approved, rejected): the webhooks of the
   * replaced steps are never sent, the new ones are.
   */
  replaceFuture(t: TransferRecord, next: readonly Step[]): void {
    const now = this.clock.now();
    const from = t.steps.findIndex((s) => s.at > now);
    if (from >= 0) t.steps.splice(from);
    const start = t.steps.length;
    t.steps.push(...next);
    t.revision = (t.revision ?? 0) + 1;
    this.unsettled.add(t);
    this.settleOne(t, now);
    this.listener?.transferRecorded(t, start);
  }

  /** An internal transfer (outside `transfers`: not deduplicated, outside the limits). */
  addInternalTransfer(t: TransferRecord): void {
    this.internalTransfers.set(t.transferId, t);
    this.listener?.transferRecorded(t);
  }

  receive(endpoint: EndpointId, transferId: string, accepted: boolean, answer: string): void {
    this.received.push({
      account: this.clientId,
      endpoint,
      transferId,
      accepted,
      answer,
      at: this.clock.now(),
    });
  }

  /** The balance check refused `transferId` (it would take `debit`); recorded, not answered. */
  refuseForBalance(endpoint: EndpointId, transferId: string, debit: Paise): void {
    this.balanceRefusals.push({
      account: this.clientId,
      endpoint,
      transferId,
      at: this.clock.now(),
      debit,
      available: this.balance,
    });
  }

  /** Applies refunds for transfers that reached FAILED/REVERSED by now. */
  settle(): void {
    const now = this.clock.now();
    for (const t of this.unsettled) {
      this.settleOne(t, now);
      if (t.steps.every((s) => s.at <= now)) this.unsettled.delete(t);
    }
  }

  /** Applies the refund of one transfer if it has reached FAILED/REVERSED by now. */
  settleTransfer(t: TransferRecord): void {
    this.settleOne(t, this.clock.now());
  }

  private settleOne(t: TransferRecord, now: number): void {
    const current = stepAt(t, now);
    const back =
      current.status === 'FAILED' || current.status === 'REVERSED' || current.status === 'REJECTED';
    if (t.debited && !t.refunded && back) {
      t.refunded = true;
      this.balance += debitOf(t);
    }
  }

  /** Sum of accepted transfers on the India day of `now`, for the daily limits. */
  spentToday(day: (ms: number) => string, beneKey?: string): Paise {
    const today = day(this.clock.now());
    let sum = 0n;
    for (const t of this.transfers.values()) {
      if (!t.debited || t.refunded || day(t.addedOn) !== today) continue;
      if (beneKey !== undefined && beneKeyOf(t) !== beneKey) continue;
      sum += t.amount;
    }
    return sum;
  }
}

/** One key per initiation id: transfer ids are shared by the transfer endpoints, the rest are not. */
export function initiationKey(endpoint: EndpointId, id: string): string {
  const family =
    endpoint === 'internalTransfer' || endpoint === 'selfWithdrawal' || endpoint === 'requestBatchTransfer'
      ? endpoint
      : // v1 and v2 batch ids share one store (a v2 batch id already used on v1 is a repeat).
        endpoint === 'batchTransferV2'
        ? 'requestBatchTransfer'
        : 'transfer';
  return `${family}\u0000${id}`;
}

/** Whether the sandbox already has this id from this endpoint's family (a re-send would be a repeat). */
export function knownInitiation(account: AccountState, endpoint: EndpointId, id: string): boolean {
  switch (endpoint) {
    case 'internalTransfer':
      return account.internalTransfers.has(id);
    case 'selfWithdrawal':
      return account.withdrawals.some((w) => w.withdrawalId === id);
    case 'requestBatchTransfer':
    case 'batchTransferV2':
      return account.batches.has(id);
    default:
      return account.transferIdTaken(id);
  }
}

/** The v1 and v2 batch endpoints: what they receive is a batch id, not a transfer id. */
export const BATCH_ENDPOINTS: readonly EndpointId[] = ['requestBatchTransfer', 'batchTransferV2'];

/** A transfer the status endpoints do not show yet (status lag). */
export function hiddenByLag(
  t: { readonly visibleAt?: number; readonly addedOn: number },
  now: number,
  lagMs = 0,
): boolean {
  return (t.visibleAt !== undefined && now < t.visibleAt) || (lagMs > 0 && now - t.addedOn < lagMs);
}

export function beneKeyOf(t: {
  beneId: string;
  bankAccount: string;
  ifsc: string;
  vpa: string;
  phone: string;
}): string {
  return t.beneId || `${t.bankAccount}|${t.ifsc}|${t.vpa}|${t.phone}`;
}

/** The status v1 shows for a step: QUEUED and APPROVAL_PENDING are PENDING there. */
export function legacyStatusOf(step: Step): string {
  if (step.v1Status) return step.v1Status;
  return step.status === 'QUEUED' || step.status === 'APPROVAL_PENDING' ? 'PENDING' : step.status;
}

/** Not settled yet (no processedOn on v1). */
export function inFlight(status: TransferStatus): boolean {
  return (
    status === 'PENDING' || status === 'RECEIVED' || status === 'QUEUED' || status === 'APPROVAL_PENDING'
  );
}

export function stepAt(t: TransferRecord, now: number): Step {
  let current = t.steps[0];
  for (const s of t.steps) if (s.at <= now) current = s;
  if (!current) throw new Error('transfer without steps');
  return current;
}
