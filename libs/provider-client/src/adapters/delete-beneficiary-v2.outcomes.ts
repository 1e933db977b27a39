import { COMMON_V2_ROWS, type V2OutcomeTable } from '../core/v2-classify.js';
import { BENEFICIARY_V2_NOT_FOUND, BENEFICIARY_V2_OTHER_400, invalidV2Row } from './beneficiary-v2.rows.js';

/** DELETE /payout/beneficiary?beneficiary_id= */
export const deleteBeneficiaryV2Outcomes: V2OutcomeTable = [
  invalidV2Row('beneficiary_id_length_exceeded', 'beneficiary_id longer than 50'),
  invalidV2Row('beneficiary_id_missing', 'beneficiary_id missing'),
  BENEFICIARY_V2_NOT_FOUND,
  { http: 404, outcome: 'unknown', meaning: 'A 404 that does not say the beneficiary is unknown' },
  BENEFICIARY_V2_OTHER_400,
  ...COMMON_V2_ROWS,
];
