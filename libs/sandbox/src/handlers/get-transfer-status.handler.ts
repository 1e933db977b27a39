import { legacyDate, NOT_PROCESSED } from '../core/clock.js';
import { formatPaise } from '../core/money.js';
import { hiddenByLag, inFlight, legacyStatusOf, stepAt, type TransferRecord } from '../core/state.js';
import { type SandboxWorld } from '../core/world.js';
import { TRANSFER_STATUS as R } from '../tables/get-transfer-status.table.js';
import { fail } from '../tables/row.js';
import { queryParam, type LegacyEndpoint } from './endpoint.js';

/** `data.transfer` as provider-facts describes it. */
export function legacyTransferView(world: SandboxWorld, t: TransferRecord): Record<string, unknown> {
  const now = world.clock.now();
  const step = stepAt(t, now);
  // v1 shows QUEUED and APPROVAL_PENDING as PENDING, and ERROR where the bank has not answered.
  const done = !inFlight(step.status);
  const hasUtr = step.status === 'SUCCESS' || step.status === 'REVERSED';
  return {
    transferId: t.transferId,
    referenceId: t.referenceId,
    bankAccount: t.bankAccount,
    ifsc: t.ifsc,
    beneId: t.beneId,
    amount: formatPaise(t.amount),
    status: legacyStatusOf(step),
    utr: hasUtr ? t.utr : '',
    addedOn: legacyDate(t.addedOn),
    processedOn: done ? legacyDate(step.at) : NOT_PROCESSED,
    reason: step.reason,
    transferMode: t.mode.toUpperCase(),
    acknowledged: step.status === 'SUCCESS' ? 1 : 0,
    phone: t.phone,
    vpa: t.vpa,
    paymentInstrumentId: t.paymentInstrumentId,
  };
}

/** GET /payout/v1(.2)/getTransferStatus?transferId= | ?referenceId= */
export const getTransferStatus: LegacyEndpoint = {
  id: 'getTransferStatus',
  fields: ['transferId', 'referenceId'],
  method: 'GET',
  paths: ['/payout/v1/getTransferStatus', '/payout/v1.2/getTransferStatus'],
  group: 'status',
  summary: 'Get Transfer Status',
  table: R,
  auth: 'bearer',
  row520: { subCode: '520', status: 'ERROR', message: 'Unknown error occurred, please retry later' },
  handle({ world, query, fault }) {
    const transferId = queryParam(query, 'transferId');
    const referenceId = queryParam(query, 'referenceId');
    if (transferId === undefined || referenceId === undefined || (!transferId && !referenceId))
      fail(R.idMissing);
    const account = world.account;
    account.settle();
    const t = transferId
      ? (account.transfers.get(transferId) ?? account.internalTransfers.get(transferId))
      : account.byReference.get(referenceId);
    // A lagging status endpoint does not know a transfer it has applied (statusLagMs).
    if (!t || hiddenByLag(t, world.clock.now(), fault?.statusLagMs))
      fail(transferId ? R.transferIdNotFound : R.referenceIdNotFound);
    return { row: R.success, data: { transfer: legacyTransferView(world, t) } };
  },
};
