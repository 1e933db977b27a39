import { COMMON_LEGACY_ROWS, type LegacyOutcomeTable } from '../core/legacy-classify.js';

/** Internal Transfer (interface document): the result is SUCCESS or ERROR, never pending. */
export const internalTransferOutcomes: LegacyOutcomeTable = [
  { status: 'SUCCESS', subCode: 200, outcome: 'success', meaning: 'Internal transfer done' },
  ...COMMON_LEGACY_ROWS,
  {
    status: 'ERROR',
    subCode: 404,
    outcome: 'failed',
    kind: 'not-found',
    http: 404,
    meaning: 'Recharge account not found',
  },
  {
    status: 'ERROR',
    subCode: 422,
    outcome: 'fatal-config',
    http: 422,
    meaning: 'Account not configured; contact the account manager',
  },
];
