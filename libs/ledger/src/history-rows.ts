import { type BatchStatus, type PayoutStatus } from '#contracts';
import { type HistoryCause, type HistoryEntry, type OperatorActor } from './history.repository.js';
import { type BatchRow, type PayoutRow } from './ledger.types.js';

/** A payout's history row: its new state and provider references, never its request. */
export function payoutHistoryOf(
  from: PayoutStatus | null,
  r: PayoutRow,
  cause: HistoryCause,
  actor?: OperatorActor,
): HistoryEntry {
  return {
    subject: 'payout',
    subjectId: r.id,
    accountId: r.accountId,
    transferId: r.transferId,
    from,
    to: r.status,
    version: r.version,
    cause,
    reason: r.reason,
    statusCode: r.statusCode,
    referenceId: r.referenceId,
    utr: r.utr,
    ...(actor ? { actor } : {}),
  };
}

/** A batch's history row: its new state and provider references. */
export function batchHistoryOf(
  from: BatchStatus | null,
  b: BatchRow,
  cause: HistoryCause,
  actor?: OperatorActor,
): HistoryEntry {
  return {
    subject: 'batch',
    subjectId: b.id,
    accountId: b.accountId,
    transferId: b.batchTransferId,
    from,
    to: b.status,
    version: b.version,
    cause,
    reason: b.reason,
    statusCode: b.statusCode,
    referenceId: b.referenceId,
    ...(actor ? { actor } : {}),
  };
}
