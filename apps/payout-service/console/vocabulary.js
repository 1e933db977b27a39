// @ts-check
// The names a search filters on. Kept in step with the service's own lists by a test
// (apps/payout-service/src/console.spec.ts): PAYOUT_STATUSES and PAYOUT_KIND_NAMES (#contracts).

export const STATUSES = [
  'RECEIVED',
  'AWAITING_APPROVAL',
  'HELD_FOR_FUNDS',
  'SUBMITTING',
  'PENDING',
  'UNKNOWN',
  'SUCCESS',
  'FAILED',
  'REJECTED',
  'REVERSED',
  'REQUIRES_ATTENTION',
];

export const KINDS = [
  'standard_transfer',
  'direct_transfer',
  'card_payout',
  'validated_upi_payout',
  'internal_transfer',
  'self_withdrawal',
];

// The provider's sub-states (issue 29): PROVIDER_SUB_STATES (#contracts).
export const SUB_STATES = [
  'queued',
  'approval_pending',
  'approved',
  'scheduled_next_working_day',
  'sent_to_bank',
];

/**
 * What each sub-state means, for a person: a payout waiting for an approval in the provider's own
 * dashboard (approval_pending) is not waiting for this service's approval (AWAITING_APPROVAL).
 * @type {Record<string, string>}
 */
export const SUB_STATE_LABELS = {
  queued: 'queued at the provider for low balance',
  approval_pending: "waiting for approval in the provider's dashboard (not this service's approval)",
  approved: "approved in the provider's dashboard, not yet settled",
  scheduled_next_working_day: "scheduled for the bank's next working day",
  sent_to_bank: "with the beneficiary's bank",
};
