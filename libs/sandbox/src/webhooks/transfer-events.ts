import { formatPaise } from '../core/money.js';
import { type Step, type TransferRecord } from '../core/state.js';
import { type TransferEvent, type TransferEventType } from './webhook.types.js';

/** The events a transfer reaching this step produces, in the order the provider sends them. */
const EVENTS_BY_STATUS: Readonly<Record<string, readonly TransferEventType[]>> = {
  SUCCESS: ['TRANSFER_SUCCESS', 'TRANSFER_ACKNOWLEDGED'],
  FAILED: ['TRANSFER_FAILED'],
  REVERSED: ['TRANSFER_REVERSED'],
  REJECTED: ['TRANSFER_REJECTED'],
};

/** Webhooks for a step; RECEIVED and PENDING produce none. Fields as the status endpoint shows them. */
export function transferEvents(t: TransferRecord, step: Step): TransferEvent[] {
  const types = EVENTS_BY_STATUS[step.status] ?? [];
  const withUtr = step.status === 'SUCCESS' || step.status === 'REVERSED';
  return types.map((type) => ({
    kind: 'transfer',
    type,
    at: step.at,
    transferId: t.transferId,
    referenceId: t.referenceId,
    utr: withUtr ? t.utr : '',
    acknowledged: step.status === 'SUCCESS' ? 1 : 0,
    reason: step.reason,
    status: step.status,
    amount: formatPaise(t.amount),
  }));
}
