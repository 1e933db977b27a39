import { COMMON_LEGACY_ROWS, type LegacyOutcomeTable } from '../core/legacy-classify.js';

/** Get Beneficiary (v1). A read: repeating it is harmless. */
export const getBeneficiaryOutcomes: LegacyOutcomeTable = [
  { status: 'SUCCESS', subCode: 200, outcome: 'success', meaning: 'Details of beneficiary' },
  ...COMMON_LEGACY_ROWS,
  {
    status: 'ERROR',
    subCode: 404,
    outcome: 'failed',
    kind: 'not-found',
    http: 404,
    meaning: 'Beneficiary does not exist',
  },
];
