import { COMMON_LEGACY_ROWS, type LegacyOutcomeTable } from '../core/legacy-classify.js';

/**
 * Add Beneficiary (v1). The interface document shows no table: these are the provider's answers
 * the sandbox reproduces. "Already exists" is a duplicate whatever its code: the caller then
 * reads the beneficiary and compares.
 */
export const addBeneficiaryOutcomes: LegacyOutcomeTable = [
  { status: 'SUCCESS', subCode: 200, outcome: 'success', meaning: 'Beneficiary added' },
  ...COMMON_LEGACY_ROWS,
  {
    status: 'ERROR',
    subCode: 409,
    outcome: 'failed',
    kind: 'duplicate',
    http: 409,
    meaning: 'Beneficiary id already exists',
  },
  {
    status: 'ERROR',
    subCode: 422,
    outcome: 'failed',
    kind: 'invalid-request',
    http: 422,
    meaning: 'Invalid beneficiary details',
  },
];
