import { COMMON_LEGACY_ROWS, type LegacyOutcomeTable } from '../core/legacy-classify.js';

/**
 * Get Balance (`GET /payout/v1/getBalance`; provider-facts.md "Long waits, balance and approvals"; the v2 page points
 * to the same v1 path). A read: repeating it is harmless, so nothing here is ever in doubt about
 * money; 429, 405 and 520 come from the common rows.
 */
export const getBalanceOutcomes: LegacyOutcomeTable = [
  { status: 'SUCCESS', subCode: 200, outcome: 'success', meaning: 'Ledger balance for the account' },
  ...COMMON_LEGACY_ROWS,
  {
    status: 'ERROR',
    subCode: 422,
    outcome: 'failed',
    kind: 'invalid-request',
    http: 422,
    meaning: 'Invalid request (the provider declares a 422 without its message)',
  },
];
