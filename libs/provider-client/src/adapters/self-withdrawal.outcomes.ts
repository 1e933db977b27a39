import { COMMON_LEGACY_ROWS, type LegacyOutcomeTable } from '../core/legacy-classify.js';

/** Self Withdrawal: success carries `statusCode` instead of `subCode`; the classifier reads either. */
export const selfWithdrawalOutcomes: LegacyOutcomeTable = [
  { status: 'SUCCESS', subCode: 200, outcome: 'success', meaning: 'Withdrawal requested' },
  {
    status: 'ERROR',
    subCode: 412,
    message: 'withdrawalid',
    outcome: 'failed',
    kind: 'invalid-request',
    http: 412,
    meaning: 'withdrawalId missing',
  },
  ...COMMON_LEGACY_ROWS,
];
