import { COMMON_LEGACY_ROWS, type LegacyOutcomeTable } from '../core/legacy-classify.js';

/** Remove Beneficiary (v1). A 404 after an unclear first attempt means it is gone: the caller decides. */
export const removeBeneficiaryOutcomes: LegacyOutcomeTable = [
  { status: 'SUCCESS', subCode: 200, outcome: 'success', meaning: 'Beneficiary removed' },
  ...COMMON_LEGACY_ROWS,
  {
    status: 'ERROR',
    subCode: 404,
    outcome: 'failed',
    kind: 'not-found',
    http: 404,
    meaning: 'Beneficiary does not exist',
  },
  {
    status: 'ERROR',
    subCode: 422,
    outcome: 'failed',
    kind: 'invalid-request',
    http: 422,
    meaning: 'Invalid beneficiary id',
  },
];
