import { COMMON_LEGACY_ROWS, type LegacyOutcomeTable } from '../core/legacy-classify.js';

/** Get Batch Transfer Status (interface document). Item statuses are left to the caller. */
export const getBatchTransferStatusOutcomes: LegacyOutcomeTable = [
  { status: 'SUCCESS', subCode: 200, outcome: 'success', meaning: 'Data retrieved' },
  { status: 'PENDING', subCode: 201, outcome: 'pending', meaning: 'Entries not processed yet' },
  ...COMMON_LEGACY_ROWS,
  {
    status: 'ERROR',
    subCode: 404,
    outcome: 'failed',
    kind: 'not-found',
    http: 404,
    meaning: 'Batch transfer ID does not exist',
  },
];
