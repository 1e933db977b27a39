import { v2Date } from '../core/clock.js';
import { formatPaise, parseAmount, rupees } from '../core/money.js';
import { stepAt, type Step, type TransferRecord } from '../core/state.js';
import { MISSING_INSTRUMENT_VPA, SUCCESS_VPA } from '../core/test-data.js';
import { type SandboxWorld } from '../core/world.js';
import { V2_TRANSFER as R } from '../tables/process-validated-payout.table.js';
import { failV2 } from '../tables/v2-common.table.js';
import { decodeV2Object, type V2Endpoint } from './v2-endpoint.js';

const FIELDS = [
  'transfer_amount',
  'transfer_id',
  'transfer_token',
  'transfer_mode',
  'transfer_remarks',
  'fundsource_id',
];

const DESCRIPTIONS: Readonly<Record<string, string>> = {
  RECEIVED: 'Transfer request received and accepted for processing',
  COMPLETED: 'Payout initiated via the partner bank',
  INVALID_BENE_VPA: 'The beneficiary VPA is invalid',
  INSUFFICIENT_BALANCE: 'Insufficient balance in the account',
};

function maskVpa(vpa: string): string {
  const at = vpa.indexOf('@');
  return at <= 2 ? `***${vpa.slice(Math.max(at, 0))}` : `${vpa.slice(0, 2)}***${vpa.slice(at)}`;
}

/** The v2 Transfer object. */
export function v2TransferView(world: SandboxWorld, t: TransferRecord): Record<string, unknown> {
  const step = stepAt(t, world.clock.now());
  const settled = step.status !== 'RECEIVED';
  return {
    transfer_id: t.transferId,
    svc_transfer_id: t.svcTransferId,
    status: step.status,
    status_code: step.statusCode,
    status_description: DESCRIPTIONS[step.statusCode] ?? step.statusCode,
    beneficiary_details: {
      beneficiary_id: t.beneId,
      beneficiary_instrument_details: t.vpa ? { vpa: maskVpa(t.vpa) } : {},
    },
    currency: 'INR',
    transfer_amount: Number(formatPaise(t.amount)),
    ...(settled ? { transfer_service_charge: 0, transfer_service_tax: 0 } : {}),
    transfer_mode: t.mode,
    ...(step.status === 'SUCCESS' || step.status === 'REVERSED' ? { transfer_utr: t.utr } : {}),
    ...(t.paymentInstrumentId ? { fundsource_id: t.paymentInstrumentId } : {}),
    added_on: v2Date(t.addedOn),
    updated_on: v2Date(step.at),
  };
}

function str(o: Readonly<Record<string, unknown>>, key: string): string | undefined {
  const v = o[key];
  return typeof v === 'string' ? v : undefined;
}

/** POST /payout/transfers: Process Validated Payout with a single-use transfer token. */
export const v2Transfer: V2Endpoint = {
  id: 'v2Transfer',
  fields: FIELDS,
  method: 'POST',
  paths: ['/payout/transfers'],
  group: 'transfer',
  summary: 'Process Validated Payout (v2)',
  table: R,
  initiationKey: 'transfer_id',
  handle({ world, body }) {
    const o = decodeV2Object(body, FIELDS);
    const transferId = str(o, 'transfer_id');
    if (!transferId) failV2(R.transferIdMissing);
    const tokenValue = str(o, 'transfer_token');
    if (!tokenValue) failV2(R.tokenMissing);
    const mode = str(o, 'transfer_mode');
    if (!mode) failV2(R.modeMissing);
    const amount = parseAmount(str(o, 'transfer_amount'));
    if (!amount || amount.decimals > 2 || amount.paise < rupees(1)) failV2(R.amountInvalid);
    const remarks = o.transfer_remarks ?? '';
    if (typeof remarks !== 'string' || remarks.length > 70) failV2(R.remarksInvalid);
    const fundsource = o.fundsource_id ?? '';
    if (typeof fundsource !== 'string') failV2(R.fundsourceInvalid);
    const token = world.transferTokens.find(tokenValue);
    if (!token) failV2(R.tokenInvalid);
    if (token.used) failV2(R.tokenUsed);
    if (world.transferTokens.isExpired(token)) failV2(R.tokenExpired);
    if (token.transferId !== transferId) failV2(R.invalidTransferId);
    if (mode !== 'upi') failV2(R.modeInvalid);
    if (token.vpa === MISSING_INSTRUMENT_VPA) failV2(R.resourceNotFound);
    const account = world.account;
    if (account.transfers.has(transferId)) failV2(R.tokenUsed);
    token.used = true;
    account.settle();
    const now = world.clock.now();
    const funded = account.balance >= amount.paise;
    const steps: Step[] = !funded
      ? [{ at: now, status: 'FAILED', statusCode: 'INSUFFICIENT_BALANCE', reason: 'INSUFFICIENT_BALANCE' }]
      : token.vpa === SUCCESS_VPA
        ? [{ at: now, status: 'SUCCESS', statusCode: 'COMPLETED', reason: '' }]
        : [
            { at: now, status: 'RECEIVED', statusCode: 'RECEIVED', reason: '' },
            {
              at: now + world.pendingDelayMs,
              status: 'FAILED',
              statusCode: 'INVALID_BENE_VPA',
              reason: 'INVALID_VPA',
            },
          ];
    const referenceId = String(account.newReferenceId());
    const record: TransferRecord = {
      transferId,
      referenceId,
      svcTransferId: referenceId,
      endpoint: 'v2Transfer',
      amount: amount.paise,
      mode: 'upi',
      beneId: '',
      bankAccount: '',
      ifsc: '',
      vpa: token.vpa,
      phone: '',
      remarks,
      paymentInstrumentId: fundsource,
      addedOn: now,
      steps,
      utr: `SBX${referenceId}`,
      refunded: false,
      debited: funded,
    };
    if (funded) account.balance -= amount.paise;
    account.addTransfer(record);
    account.receive('v2Transfer', transferId, funded, steps[0]?.statusCode ?? '');
    return v2TransferView(world, record);
  },
};
