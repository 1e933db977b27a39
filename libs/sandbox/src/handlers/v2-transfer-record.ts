import { isoUtc } from '../core/clock.js';
import { chargedFee, debitOf } from '../core/fees.js';
import { formatPaise } from '../core/money.js';
import { type EndpointId } from '../core/settings.js';
import { inFlight, stepAt, type Step, type TransferRecord } from '../core/state.js';
import { type Outcome } from '../core/test-data.js';
import { type SandboxWorld } from '../core/world.js';
import { v2StatusDescription } from '../tables/v2-status-codes.table.js';
import { applyHold, holdTransfer, longWaitSteps, type Hold } from './long-waits.js';
import { V2_BANK_MODES, type V2Instrument, type V2TransferDraft } from './v2-transfer-flow.js';

/**
 * A v2 transfer once decoded (v2-transfer-flow.ts): its steps, its record and the money it moves,
 * and the Transfer object every v2 transfer endpoint answers.
 */

/**
 * The v2 statuses and status codes of each test account. A success is first SUCCESS with
 * SENT_TO_BENEFICIARY (debited, credit not yet confirmed), then SUCCESS with COMPLETED once the
 * beneficiary bank confirms (`acknowledgeDelayMs` later). v2 accepts (200) what v1 refuses for
 * an invalid account or IFSC: the transfer is FAILED at once, with nothing debited.
 */
/** A v2 success from `at`: SENT_TO_BENEFICIARY, then COMPLETED `acknowledgeDelayMs` later. */
export function v2Succeed(world: SandboxWorld, at: number): Step[] {
  return [
    { at, status: 'SUCCESS', statusCode: 'SENT_TO_BENEFICIARY', reason: '' },
    { at: at + world.acknowledgeDelayMs, status: 'SUCCESS', statusCode: 'COMPLETED', reason: '' },
  ];
}

export function v2Steps(world: SandboxWorld, outcome: Outcome, mode: string): Step[] {
  const t0 = world.clock.now();
  const later = t0 + world.pendingDelayMs;
  const ack = world.acknowledgeDelayMs;
  const step = (at: number, status: Step['status'], statusCode: string, reason = ''): Step => ({
    at,
    status,
    statusCode,
    reason,
  });
  const succeed = (at: number): Step[] => v2Succeed(world, at);
  const long = longWaitSteps(world, outcome, succeed);
  if (long) return long;
  switch (outcome) {
    case 'success':
      return succeed(t0);
    case 'scheduled':
      return [step(t0, 'PENDING', 'SCHEDULED_FOR_NEXT_WORKINGDAY'), ...succeed(later)];
    case 'pending':
      return [step(t0, 'PENDING', 'PENDING')];
    case 'pendingThenSuccess':
      return [step(t0, 'PENDING', 'SENT_TO_BANK'), ...succeed(later)];
    case 'receivedThenSuccess':
      return [step(t0, 'RECEIVED', 'RECEIVED'), ...succeed(later)];
    case 'pendingThenFailure':
      return [
        step(t0, 'PENDING', 'SENT_TO_BANK'),
        step(later, 'FAILED', 'BENE_BANK_DECLINED', 'BENEFICIARY_BANK_OFFLINE'),
      ];
    case 'successThenReversed':
      return [...succeed(t0), step(later + ack, 'REVERSED', 'INVALID_ACCOUNT_FAIL', 'INVALID_ACCOUNT_FAIL')];
    case 'hangThenSuccess':
      return [step(t0, 'PENDING', 'PENDING'), ...succeed(t0 + world.hangMs)];
    case 'invalidAccount':
    case 'invalidIfsc':
      return [step(t0, 'FAILED', 'INVALID_BENE_ACCOUNT_OR_IFSC', 'INVALID_ACCOUNT_FAIL')];
    case 'beneNotAllowed':
      return [step(t0, 'REJECTED', 'BENE_BLACKLISTED', 'BENE_BLACKLISTED')];
    default:
      return mode === 'upi'
        ? [step(t0, 'FAILED', 'INVALID_BENE_VPA', 'INVALID_VPA')]
        : [step(t0, 'FAILED', 'IMPS_MODE_FAIL', 'ANY_OTHER_REASON')];
  }
}

/**
 * Records an accepted v2 transfer and moves money. A transfer the account cannot fund is
 * accepted and FAILED with INSUFFICIENT_BALANCE (as Process Validated Payout answers it).
 */
export function recordV2Transfer(
  world: SandboxWorld,
  endpoint: EndpointId,
  draft: V2TransferDraft,
  instrument: V2Instrument,
  outcome: Outcome,
): TransferRecord {
  const account = world.account;
  account.settle();
  const plan = (): Step[] => v2Steps(world, outcome, draft.mode);
  const planned = plan();
  const first = planned[0];
  const refusedAtOnce = first?.status === 'FAILED' || first?.status === 'REJECTED';
  // The fee goes with the amount: a payout fits when both do.
  const fee = account.fee();
  const debit = debitOf({ amount: draft.amount, fee });
  // Queued for balance (opt in), held for approval, or as planned.
  const hold: Hold = refusedAtOnce
    ? { steps: planned }
    : holdTransfer(world, outcome, debit, plan, (at) => v2Succeed(world, at));
  const queued = hold.release !== undefined;
  const funded = refusedAtOnce || queued || account.balance >= debit;
  const steps: Step[] = funded
    ? hold.steps
    : [
        {
          at: world.clock.now(),
          status: 'FAILED',
          statusCode: 'INSUFFICIENT_BALANCE',
          reason: 'INSUFFICIENT_BALANCE',
        },
      ];
  if (!funded) account.refuseForBalance(endpoint, draft.transferId, debit);
  const debited = funded && !refusedAtOnce && !queued;
  const referenceId = String(account.newReferenceId());
  const record: TransferRecord = {
    transferId: draft.transferId,
    referenceId,
    svcTransferId: referenceId,
    endpoint,
    amount: draft.amount,
    mode: draft.mode,
    beneId: draft.beneId,
    bankAccount: V2_BANK_MODES.includes(draft.mode) ? instrument.bankAccount : '',
    ifsc: V2_BANK_MODES.includes(draft.mode) ? instrument.ifsc : '',
    vpa: draft.mode === 'upi' ? instrument.vpa : '',
    phone: instrument.phone,
    remarks: draft.remarks,
    paymentInstrumentId: draft.fundsourceId,
    addedOn: world.clock.now(),
    steps,
    fee,
    utr: `SBX${referenceId}`,
    refunded: false,
    debited,
  };
  if (funded) applyHold(record, hold);
  if (debited) account.balance -= debit;
  if (queued) account.queue.push(record);
  account.addTransfer(record);
  account.receive(endpoint, draft.transferId, debited || queued, steps[0]?.statusCode ?? '');
  return record;
}

function maskVpa(vpa: string): string {
  const at = vpa.indexOf('@');
  return at <= 2 ? `***${vpa.slice(Math.max(at, 0))}` : `${vpa.slice(0, 2)}***${vpa.slice(at)}`;
}

/**
 * The v2 Transfer object (`CreateTransferResponse`). The IFSC is under both names the provider is
 * seen to use (`ifsc` in its schema, `bank_ifsc` in its examples). The provider's id is under its
 * real wire name only, `cf_transfer_id` (the interface document's neutral `svc_transfer_id` is not
 * sent: the provider does not send it).
 */
export function v2TransferView(world: SandboxWorld, t: TransferRecord): Record<string, unknown> {
  const step = stepAt(t, world.clock.now());
  const settled = step.status !== 'RECEIVED' && !inFlight(step.status);
  const fee = chargedFee(t.fee, step.status);
  const instrument: Record<string, string> = {};
  if (t.bankAccount) instrument.bank_account_number = t.bankAccount;
  if (t.ifsc) {
    instrument.ifsc = t.ifsc;
    instrument.bank_ifsc = t.ifsc;
  }
  if (t.vpa) instrument.vpa = maskVpa(t.vpa);
  return {
    transfer_id: t.transferId,
    cf_transfer_id: t.svcTransferId,
    status: step.status,
    status_code: step.statusCode,
    status_description: v2StatusDescription(step.statusCode),
    beneficiary_details: {
      ...(t.beneId ? { beneficiary_id: t.beneId } : {}),
      beneficiary_instrument_details: instrument,
    },
    currency: 'INR',
    transfer_amount: Number(formatPaise(t.amount)),
    // Once settled, as the provider shows them (0 when none was charged).
    ...(settled
      ? {
          transfer_service_charge: Number(formatPaise(fee.charge)),
          transfer_service_tax: Number(formatPaise(fee.tax)),
        }
      : {}),
    transfer_mode: t.mode,
    ...(step.status === 'SUCCESS' || step.status === 'REVERSED' ? { transfer_utr: t.utr } : {}),
    ...(t.paymentInstrumentId ? { fundsource_id: t.paymentInstrumentId } : {}),
    added_on: isoUtc(t.addedOn),
    updated_on: isoUtc(step.at),
  };
}
