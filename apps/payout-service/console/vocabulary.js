// @ts-check
// The names a search filters on. Kept in step with the service's own lists by a test
// (apps/payout-service/src/console.spec.ts): PAYOUT_STATUSES (#contracts), PAYOUT_KIND_NAMES (#pipeline).

export const STATUSES = [
  'RECEIVED',
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
