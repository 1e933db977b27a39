import { COMMON_V2_ROWS, type V2OutcomeTable } from '../core/v2-classify.js';
import {
  BENEFICIARY_V2_IDENTIFIER_ROWS,
  BENEFICIARY_V2_NOT_FOUND,
  BENEFICIARY_V2_OTHER_400,
  invalidV2Row,
} from './beneficiary-v2.rows.js';

/** GET /payout/beneficiary (by id, or by account and IFSC). */
export const getBeneficiaryV2Outcomes: V2OutcomeTable = [
  ...BENEFICIARY_V2_IDENTIFIER_ROWS,
  invalidV2Row('too_many_parameters_in_request', 'both an id and an account were sent'),
  invalidV2Row('beneficiary_identifiers_missing', 'neither an id nor an account was sent'),
  BENEFICIARY_V2_NOT_FOUND,
  // Only beneficiary_not_found says it is unknown; another 404 (a proxy's page) is unclear.
  { http: 404, outcome: 'unknown', meaning: 'A 404 that does not say the beneficiary is unknown' },
  BENEFICIARY_V2_OTHER_400,
  ...COMMON_V2_ROWS,
];
