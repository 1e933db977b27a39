import { COMMON_V2_ROWS, type V2OutcomeRow, type V2OutcomeTable } from '../core/v2-classify.js';

const INSTRUMENT = 'beneficiary_details.beneficiary_instrument_details';

/** A 400 field refusal: the request was read and refused, nothing was paid. */
const field = (code: string, meaning: string): V2OutcomeRow => ({
  http: 400,
  code,
  outcome: 'failed',
  kind: 'invalid-request',
  meaning,
});

/**
 * The field rows of a v2 transfer (provider-v2.md, "POST /transfers"). Batch entries answer the
 * same codes under `transfers[i].`, so the batch table reuses them.
 */
export const TRANSFER_V2_FIELD_ROWS: V2OutcomeTable = [
  field('transfer_id_missing', 'transfer_id missing'),
  field('transfer_id_invalid', 'transfer_id invalid'),
  field('transfer_amount_missing', 'transfer_amount missing'),
  field('transfer_amount_invalid', 'transfer_amount below 1.00 or malformed'),
  field('transfer_mode_invalid', 'transfer_mode not one the provider knows'),
  field('beneficiary_details.beneficiary_id_invalid', 'beneficiary_id invalid'),
  field('beneficiary_details.beneficiary_name_invalid', 'beneficiary_name invalid'),
  field(`${INSTRUMENT}.bank_account_number_invalid`, 'bank account invalid (or not the registered one)'),
  field(`${INSTRUMENT}.bank_ifsc_invalid`, 'IFSC invalid (or not the registered one)'),
  field(`${INSTRUMENT}.vpa_invalid`, 'VPA invalid (or not the registered one)'),
];

/**
 * Standard Transfer V2 (`POST /payout/transfers`, provider-v2.md). A 200 carries the transfer,
 * whose own status decides (it may already be FAILED or REJECTED). Any "already exists" answer
 * (409 `transfer_id_already_exists`, inferred from v1 and the other v2 ids) is classified
 * `duplicate` before this table is read: the provider holds the id, so it is looked up, never
 * FAILED. A 5xx, or any answer not listed, is `unknown`: checked by transfer_id, never re-sent
 * blind.
 */
export const transferV2Outcomes: V2OutcomeTable = [
  ...TRANSFER_V2_FIELD_ROWS,
  // A 400 without a documented code (a header or body the provider could not read): refused unread.
  { http: 400, outcome: 'failed', kind: 'invalid-request', meaning: 'Request refused as invalid' },
  {
    http: 403,
    code: 'apis_not_enabled',
    outcome: 'fatal-config',
    meaning: 'Transfers V2 not enabled for the account',
  },
  {
    http: 404,
    code: 'beneficiary_not_found',
    outcome: 'failed',
    kind: 'rejected',
    meaning: 'Beneficiary id not registered',
  },
  // No 422 is documented for this endpoint, and on the same path a 422 (failed_to_process_request)
  // means "already used to initiate a payout": the transfer may exist, so it is checked, never
  // taken as a refusal.
  {
    http: 422,
    outcome: 'unknown',
    meaning: 'Unprocessable, undocumented here: the transfer may exist; check its status',
  },
  { http: 429, outcome: 'retry-safe', meaning: 'Rate limited by the provider' },
  { http: 500, outcome: 'unknown', meaning: 'Provider error: the transfer may exist; check its status' },
  { http: 502, outcome: 'unknown', meaning: 'Bad gateway: the transfer may exist; check its status' },
  { http: 503, outcome: 'unknown', meaning: 'Unavailable: the transfer may exist; check its status' },
  { http: 504, outcome: 'unknown', meaning: 'Gateway timeout: the transfer may exist; check its status' },
  ...COMMON_V2_ROWS,
];
