import { COMMON_LEGACY_ROWS, type LegacyOutcomeTable } from '../core/legacy-classify.js';

/** Get Beneficiary ID. A read: repeating it is harmless, so the provider's "retry" code is retry-safe. */
export const getBeneIdOutcomes: LegacyOutcomeTable = [
  { status: 'SUCCESS', subCode: 200, outcome: 'success', meaning: 'Beneficiary id found' },
  { status: 'ERROR', subCode: 52, outcome: 'retry-safe', meaning: 'Error while fetching the id; retry' },
  ...COMMON_LEGACY_ROWS,
  {
    status: 'ERROR',
    subCode: 404,
    outcome: 'failed',
    kind: 'not-found',
    http: 404,
    meaning: 'No beneficiary for these bank details',
  },
  {
    status: 'ERROR',
    subCode: 422,
    outcome: 'failed',
    kind: 'invalid-request',
    http: 422,
    meaning: 'Invalid bank account or IFSC',
  },
];
