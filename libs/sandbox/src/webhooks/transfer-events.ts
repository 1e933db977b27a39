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

/**
 * v2's success comes in two: TRANSFER_SUCCESS with SUCCESS / SENT_TO_BENEFICIARY (debited, the
 * credit not confirmed yet), then TRANSFER_ACKNOWLEDGED with SUCCESS / COMPLETED (credited)
 * (provider-v2.md, "Webhooks V2").
 */
export const SENT_TO_BENEFICIARY = 'SENT_TO_BENEFICIARY';
const COMPLETED = 'COMPLETED';
/** The status_code of the step an approval in the dashboard makes (PENDING, then paid). */
export const APPROVED = 'APPROVED';

/**
 * The success events of a step: a step already at SENT_TO_BENEFICIARY is the first half; a
 * completed one after it the second half; a transfer that completes in one step sends both.
 */
function successEvents(t: TransferRecord, step: Step): Array<[TransferEventType, string]> {
  if (step.statusCode === SENT_TO_BENEFICIARY) return [['TRANSFER_SUCCESS', SENT_TO_BENEFICIARY]];
  const i = t.steps.indexOf(step);
  const before = i >= 0 ? t.steps.slice(0, i) : t.steps.filter((s) => s.at < step.at);
  const sentBefore = before.some((s) => s.statusCode === SENT_TO_BENEFICIARY);
  const completed = step.statusCode || COMPLETED;
  return sentBefore
    ? [['TRANSFER_ACKNOWLEDGED', completed]]
    : [
        ['TRANSFER_SUCCESS', SENT_TO_BENEFICIARY],
        ['TRANSFER_ACKNOWLEDGED', completed],
      ];
}

/** Webhooks for a step; RECEIVED and PENDING produce none. Fields as the status endpoint shows them. */
export function transferEvents(t: TransferRecord, step: Step): TransferEvent[] {
  const types: Array<[TransferEventType, string]> =
    step.status === 'SUCCESS'
      ? successEvents(t, step)
      : step.statusCode === APPROVED
        ? [['TRANSFER_APPROVED', APPROVED]]
        : (EVENTS_BY_STATUS[step.status] ?? []).map((type) => [type, step.statusCode || step.status]);
  const withUtr = step.status === 'SUCCESS' || step.status === 'REVERSED';
  return types.map(([type, statusCode]) => ({
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
    statusCode,
    record: t,
  }));
}
