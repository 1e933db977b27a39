import { istDay } from '../core/clock.js';
import { debitOf } from '../core/fees.js';
import { paiseFromConfig, rupees, type Paise } from '../core/money.js';
import { type EndpointId } from '../core/settings.js';
import { beneKeyOf, stepAt, type AccountState, type Step, type TransferRecord } from '../core/state.js';
import { PAYMENT_INSTRUMENTS, type Outcome } from '../core/test-data.js';
import { type SandboxWorld } from '../core/world.js';
import { fail, type LegacyRow } from '../tables/row.js';
import { applyHold, holdTransfer, longWaitSteps, mustQueue, type Hold } from './long-waits.js';

/** The rows a transfer endpoint must have for the shared checks below. */
export interface TransferRows {
  readonly success: LegacyRow;
  readonly scheduled: LegacyRow;
  readonly pendingAtBank: LegacyRow;
  readonly awaitingBene: LegacyRow;
  readonly received: LegacyRow;
  readonly transferIdExists: LegacyRow;
  /** The id was first used by another transfer endpoint; absent: `transferIdExists`. */
  readonly transferIdUsedElsewhere?: LegacyRow;
  readonly insufficientBalance: LegacyRow;
  readonly beneLimit: LegacyRow;
  readonly accountLimit: LegacyRow;
  readonly bankFailed: LegacyRow;
  readonly walletFailed: LegacyRow;
  readonly invalidAccountOrIfsc: LegacyRow;
  readonly invalidIfsc: LegacyRow;
  readonly beneNotAllowed: LegacyRow;
  readonly beneNotFound: LegacyRow;
  readonly amountRange: LegacyRow;
  readonly wait30: LegacyRow;
  readonly multipleInstruments: LegacyRow;
  readonly instrumentInvalidForMode: LegacyRow;
  readonly instrumentNotAvailable: LegacyRow;
  /** "Transfer triggered, no response from bank" (requestTransfer 201 ERROR, directTransfer 520). */
  readonly noResponse?: LegacyRow;
}

export const TRANSFER_MODES = [
  'banktransfer',
  'neft',
  'imps',
  'rtgs',
  'upi',
  'wallet_a',
  'wallet_b',
] as const;
export const BANK_MODES: readonly string[] = ['banktransfer', 'neft', 'imps', 'rtgs'];
export const WALLET_MODES: readonly string[] = ['wallet_a', 'wallet_b'];
export const TRANSFER_ID_RE = /^[A-Za-z0-9_]{1,40}$/;
export const REMARKS_RE = /^[A-Za-z0-9\s]{0,70}$/;
export const BANK_ACCOUNT_RE = /^[A-Za-z0-9]{6,40}$/;

const MAX_AMOUNT = rupees(100_000);
const MIN_WALLET_AMOUNT = rupees(100);
const THIRTY_MINUTES = 30 * 60_000;

export interface TransferInput {
  readonly endpoint: EndpointId;
  readonly transferId: string;
  readonly amount: Paise;
  readonly mode: string;
  readonly beneId: string;
  readonly bankAccount: string;
  readonly ifsc: string;
  readonly vpa: string;
  readonly phone: string;
  readonly remarks: string;
  readonly paymentInstrumentId: string;
  readonly outcome: Outcome;
}

export function checkInstrument(account: AccountState, id: string, mode: string, rows: TransferRows): void {
  if (id === '') {
    if (account.flags.multipleInstruments) fail(rows.multipleInstruments);
    return;
  }
  const modes = PAYMENT_INSTRUMENTS[id];
  if (modes === undefined) fail(rows.instrumentNotAvailable);
  if (modes !== 'all' && !modes.includes(mode)) fail(rows.instrumentInvalidForMode);
}

/** Rs. 100000 at most for every mode; wallets also need at least Rs. 100 (sandbox choice). */
export function checkAmountRange(amount: Paise, mode: string, rows: TransferRows): void {
  if (amount > MAX_AMOUNT || (WALLET_MODES.includes(mode) && amount < MIN_WALLET_AMOUNT))
    fail(rows.amountRange);
}

/** A beneficiary registered less than 30 minutes ago (sandbox clock) cannot be paid yet. */
export function checkWait30(world: SandboxWorld, input: TransferInput, rows: TransferRows): void {
  const now = world.clock.now();
  for (const b of world.account.beneficiaries.values()) {
    const same =
      (input.beneId !== '' && b.beneId === input.beneId) ||
      (input.bankAccount !== '' && b.bankAccount === input.bankAccount && b.ifsc === input.ifsc) ||
      (input.vpa !== '' && b.vpa === input.vpa);
    if (same && now - b.addedAt < THIRTY_MINUTES) fail(rows.wait30);
  }
}

function stepsFor(outcome: Outcome, world: SandboxWorld, upi: boolean): Step[] {
  const t0 = world.clock.now();
  const later = t0 + world.pendingDelayMs;
  const ok = (at: number): Step => ({ at, status: 'SUCCESS', statusCode: 'COMPLETED', reason: '' });
  const pending = (code: string): Step => ({ at: t0, status: 'PENDING', statusCode: code, reason: '' });
  const long = longWaitSteps(world, outcome, (at) => [ok(at)]);
  if (long) return long;
  switch (outcome) {
    case 'success':
      return [ok(t0)];
    case 'scheduled':
      return [pending('SCHEDULED_FOR_NEXT_WORKINGDAY'), ok(later)];
    case 'pending':
      return [pending('PENDING')];
    case 'pendingThenSuccess':
    case 'receivedThenSuccess':
      return outcome === 'receivedThenSuccess'
        ? [{ at: t0, status: 'RECEIVED', statusCode: 'RECEIVED', reason: '' }, ok(later)]
        : [pending('SENT_TO_BANK'), ok(later)];
    case 'pendingThenFailure':
      return [
        pending('SENT_TO_BANK'),
        { at: later, status: 'FAILED', statusCode: 'BENE_BANK_DECLINED', reason: 'BENEFICIARY_BANK_OFFLINE' },
      ];
    case 'successThenReversed':
      return [
        ok(t0),
        { at: later, status: 'REVERSED', statusCode: 'INVALID_ACCOUNT_FAIL', reason: 'INVALID_ACCOUNT_FAIL' },
      ];
    case 'hangThenSuccess':
      return [pending('PENDING'), ok(t0 + world.hangMs)];
    default:
      return [
        {
          at: t0,
          status: 'FAILED',
          statusCode: upi ? 'INVALID_BENE_VPA' : 'IMPS_MODE_FAIL',
          reason: upi ? 'INVALID_VPA' : 'ANY_OTHER_REASON',
        },
      ];
  }
}

function answerRow(outcome: Outcome, rows: TransferRows, first: Step | undefined): LegacyRow {
  // Queued for balance: received, to be sent once funded; held for approval: pending.
  if (first?.status === 'QUEUED') return rows.received;
  if (first?.status === 'APPROVAL_PENDING') return rows.awaitingBene;
  switch (outcome) {
    case 'success':
    case 'successThenReversed':
    case 'hangThenSuccess':
    case 'lateReversal':
      return rows.success;
    case 'errorThenSuccess':
      return rows.noResponse ?? rows.awaitingBene;
    case 'scheduled':
    case 'nextWorkingDay':
      return rows.scheduled;
    case 'pending':
      return rows.pendingAtBank;
    case 'pendingThenSuccess':
    case 'pendingThenFailure':
      return rows.awaitingBene;
    case 'receivedThenSuccess':
      return rows.received;
    default:
      return rows.bankFailed;
  }
}

function checkOutcomeRejects(input: TransferInput, rows: TransferRows): void {
  switch (input.outcome) {
    case 'invalidAccount':
      return fail(rows.invalidAccountOrIfsc);
    case 'invalidIfsc':
      return fail(rows.invalidIfsc);
    case 'beneNotAllowed':
      return fail(rows.beneNotAllowed);
    case 'beneNotFound':
      return fail(rows.beneNotFound);
    default:
      return;
  }
}

function checkLimits(account: AccountState, input: TransferInput, rows: TransferRows): void {
  const { beneficiaryDailyLimit, accountDailyLimit } = account.flags;
  if (beneficiaryDailyLimit !== '') {
    const spent = account.spentToday(istDay, beneKeyOf(input));
    if (spent + input.amount > paiseFromConfig(beneficiaryDailyLimit)) fail(rows.beneLimit);
  }
  if (accountDailyLimit !== '') {
    if (account.spentToday(istDay) + input.amount > paiseFromConfig(accountDailyLimit))
      fail(rows.accountLimit);
  }
}

/**
 * Records the transfer and moves money, after the endpoint-specific checks. Answers the row for
 * the outcome; the "25 s with no answer" account waits on the sandbox clock before answering.
 */
export async function commitTransfer(
  world: SandboxWorld,
  input: TransferInput,
  rows: TransferRows,
): Promise<{ row: LegacyRow; record: TransferRecord }> {
  const done = recordTransfer(world, input, rows);
  if (input.outcome === 'hangThenSuccess') await world.clock.sleep(world.hangMs);
  return done;
}

/**
 * A transferId is unique across the transfer endpoints. The endpoint's own check answers its
 * documented row; an id first used through another endpoint is caught by the shared transfer
 * store, whose answer (`transferIdUsedElsewhere`) may carry another code.
 */
export function refuseRepeat(
  account: AccountState,
  endpoint: EndpointId,
  transferId: string,
  rows: Pick<TransferRows, 'transferIdExists' | 'transferIdUsedElsewhere'>,
): void {
  const first = account.transfers.get(transferId);
  if (!first) {
    // An entry of a batch accepted but not processed yet holds the id (one namespace).
    if (account.batchEntryIds.has(transferId)) fail(rows.transferIdUsedElsewhere ?? rows.transferIdExists);
    return;
  }
  fail(
    first.endpoint !== endpoint && rows.transferIdUsedElsewhere
      ? rows.transferIdUsedElsewhere
      : rows.transferIdExists,
  );
}

/** The synchronous part of `commitTransfer` (batch entries use it directly: nobody waits). */
export function recordTransfer(
  world: SandboxWorld,
  input: TransferInput,
  rows: TransferRows,
): { row: LegacyRow; record: TransferRecord } {
  const account = world.account;
  refuseRepeat(account, input.endpoint, input.transferId, rows);
  checkOutcomeRejects(input, rows);
  account.settle();
  checkLimits(account, input, rows);
  const failsAtBank = input.outcome === 'bankFailed';
  // The fee goes with the amount: a payout fits when both do.
  const fee = account.fee();
  const debit = debitOf({ amount: input.amount, fee });
  const queued = !failsAtBank && mustQueue(account, input.outcome, debit, world.clock.now());
  if (!failsAtBank && !queued && account.balance < debit) {
    account.refuseForBalance(input.endpoint, input.transferId, debit);
    fail(rows.insufficientBalance);
  }
  const upi = input.mode === 'upi';
  const planned = (): Step[] => stepsFor(input.outcome, world, upi);
  const hold: Hold = failsAtBank
    ? { steps: planned() }
    : holdTransfer(world, input.outcome, debit, planned, (at) => [
        { at, status: 'SUCCESS', statusCode: 'COMPLETED', reason: '' },
      ]);
  const referenceId = String(account.newReferenceId());
  const record: TransferRecord = {
    transferId: input.transferId,
    referenceId,
    svcTransferId: referenceId,
    endpoint: input.endpoint,
    amount: input.amount,
    mode: input.mode,
    beneId: input.beneId,
    bankAccount: input.bankAccount,
    ifsc: input.ifsc,
    vpa: input.vpa,
    phone: input.phone,
    remarks: input.remarks,
    paymentInstrumentId: input.paymentInstrumentId,
    addedOn: world.clock.now(),
    steps: hold.steps,
    fee,
    utr: `SBX${referenceId}`,
    refunded: false,
    debited: !failsAtBank && !hold.release,
  };
  applyHold(record, hold);
  if (record.debited) account.balance -= debit;
  if (hold.release) account.queue.push(record);
  account.addTransfer(record);
  const row = answerRow(input.outcome, rows, hold.steps[0]);
  account.receive(input.endpoint, input.transferId, record.debited || !!hold.release, row.subCode);
  return { row, record };
}

/** `data` of requestTransfer / directTransfer / cardpay. */
export function transferResult(world: SandboxWorld, t: TransferRecord): Record<string, unknown> {
  const now = world.clock.now();
  const s = stepAt(t, now).status;
  const done = s === 'SUCCESS' || s === 'REVERSED';
  return { referenceId: t.referenceId, utr: done ? t.utr : '', acknowledged: s === 'SUCCESS' ? 1 : 0 };
}
