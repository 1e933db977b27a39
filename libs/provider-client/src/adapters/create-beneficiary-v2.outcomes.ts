import { COMMON_V2_ROWS, type V2OutcomeTable } from '../core/v2-classify.js';
import {
  BENEFICIARY_V2_IDENTIFIER_ROWS,
  BENEFICIARY_V2_OTHER_400,
  invalidV2Row,
} from './beneficiary-v2.rows.js';

/** POST /payout/beneficiary. A 409 means "it exists": the caller reads it and compares. */
export const createBeneficiaryV2Outcomes: V2OutcomeTable = [
  ...BENEFICIARY_V2_IDENTIFIER_ROWS,
  invalidV2Row('beneficiary_name_invalid', 'beneficiary_name invalid'),
  invalidV2Row('vpa_invalid', 'vpa invalid'),
  invalidV2Row('beneficiary_instrument_details_missing', 'no account with IFSC and no VPA'),
  invalidV2Row('beneficiary_contact_details_invalid', 'contact details invalid'),
  {
    http: 409,
    code: 'beneficiary_id_already_exists',
    outcome: 'failed',
    kind: 'duplicate',
    meaning: 'A beneficiary with this id exists',
  },
  {
    http: 409,
    code: 'beneficiary_already_exists',
    outcome: 'failed',
    kind: 'duplicate',
    meaning: 'A beneficiary with this account and IFSC exists',
  },
  {
    http: 422,
    code: 'beneficiary_account_same_as_source',
    outcome: 'failed',
    kind: 'rejected',
    meaning: 'The account is the source account',
  },
  {
    http: 422,
    code: 'vba_bene_not_allowed',
    outcome: 'failed',
    kind: 'rejected',
    meaning: 'Virtual bank accounts cannot be beneficiaries',
  },
  BENEFICIARY_V2_OTHER_400,
  ...COMMON_V2_ROWS,
];
