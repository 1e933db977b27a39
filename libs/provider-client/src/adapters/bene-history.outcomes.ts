import { COMMON_LEGACY_ROWS, type LegacyOutcomeTable } from '../core/legacy-classify.js';

/** Get Beneficiary History (interface document). 429 and 405 come from the common rows. */
export const beneHistoryOutcomes: LegacyOutcomeTable = [
  { status: 'SUCCESS', subCode: 200, outcome: 'success', meaning: 'Data retrieved' },
  ...COMMON_LEGACY_ROWS,
  {
    status: 'ERROR',
    subCode: 422,
    outcome: 'failed',
    kind: 'invalid-request',
    http: 422,
    meaning: 'Invalid date range, page, perPage or beneficiary id',
  },
];
