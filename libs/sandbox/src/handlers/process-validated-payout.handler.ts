import { debitOf } from '../core/fees.js';
import { parseAmount, rupees } from '../core/money.js';
import { type Step, type TransferRecord } from '../core/state.js';
import { MISSING_INSTRUMENT_VPA, SUCCESS_VPA } from '../core/test-data.js';
import { V2_TRANSFER as R } from '../tables/process-validated-payout.table.js';
import { failV2 } from '../tables/v2-common.table.js';
import { decodeV2Object, type V2Endpoint } from './v2-endpoint.js';
import { v2TransferView } from './v2-transfer-record.js';

const FIELDS = [
  'transfer_amount',
  'transfer_id',
  'transfer_token',
  'transfer_mode',
  'transfer_remarks',
  'fundsource_id',
];

function str(o: Readonly<Record<string, unknown>>, key: string): string | undefined {
  const v = o[key];
  return typeof v === 'string' ? v : undefined;
}

/** POST /payout/transfers: Process Validated Payout with a single-use transfer token. */
export const processValidatedPayout: V2Endpoint = {
  id: 'processValidatedPayout',
  fields: FIELDS,
  method: 'POST',
  paths: ['/payout/transfers'],
  group: 'transfer',
  summary: 'Process Validated Payout (v2)',
  table: R,
  initiationKey: 'transfer_id',
  // It shares `POST /payout/transfers` with Standard Transfer V2: a body with a transfer token is its.
  accepts: (body) => typeof body === 'object' && body !== null && 'transfer_token' in body,
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
    if (account.transferIdTaken(transferId)) failV2(R.tokenUsed);
    token.used = true;
    account.settle();
    const now = world.clock.now();
    // The fee goes with the amount: a payout fits when both do.
    const fee = account.fee();
    const debit = debitOf({ amount: amount.paise, fee });
    const funded = account.balance >= debit;
    if (!funded) account.refuseForBalance('processValidatedPayout', transferId, debit);
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
      endpoint: 'processValidatedPayout',
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
      fee,
      utr: `SBX${referenceId}`,
      refunded: false,
      debited: funded,
    };
    if (funded) account.balance -= debit;
    account.addTransfer(record);
    account.receive('processValidatedPayout', transferId, funded, steps[0]?.statusCode ?? '');
    return v2TransferView(world, record);
  },
};
