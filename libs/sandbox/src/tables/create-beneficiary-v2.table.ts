import { type V2Row, type V2Table } from './row.js';
import { badRequest as bad } from './v2-common.table.js';

const conflict = (code: string, message: string): V2Row => ({
  http: 409,
  type: 'invalid_request_error',
  code,
  message,
});
const unprocessable = (code: string, message: string): V2Row => ({
  http: 422,
  type: 'invalid_request_error',
  code,
  message,
});

/** Rows the beneficiary endpoints share (identifier and account checks). */
export const V2_BENEFICIARY_ROWS = {
  beneIdLengthExceeded: bad(
    'beneficiary_id_length_exceeded',
    'beneficiary_id should be at most 50 characters',
    true,
  ),
  beneIdInvalid: bad(
    'beneficiary_id_invalid',
    'beneficiary_id should contain only letters, digits, _, | and .',
    true,
  ),
  ifscMissing: bad('bank_ifsc_missing', 'bank_ifsc is required with bank_account_number', true),
  accountMissing: bad('bank_account_number_missing', 'bank_account_number is required with bank_ifsc', true),
  accountLengthExceeded: bad(
    'bank_account_number_length_exceeded',
    'bank_account_number should be at most 18 characters',
    true,
  ),
  accountLengthShort: bad(
    'bank_account_number_length_short',
    'bank_account_number should be at least 9 characters',
    true,
  ),
  accountInvalid: bad('bank_account_number_invalid', 'bank_account_number should be alphanumeric', true),
  ifscInvalid: bad('bank_ifsc_invalid', 'bank_ifsc is invalid', true),
} as const satisfies V2Table;

/** Create Beneficiary V2 error table. */
export const V2_CREATE_BENEFICIARY = {
  ...V2_BENEFICIARY_ROWS,
  beneIdMissing: bad('beneficiary_id_missing', 'beneficiary_id is missing in the request'),
  nameInvalid: bad(
    'beneficiary_name_invalid',
    'beneficiary_name is required: letters and spaces, at most 100 characters',
  ),
  vpaInvalid: bad('vpa_invalid', 'vpa is invalid'),
  instrumentMissing: bad(
    'beneficiary_instrument_details_missing',
    'bank_account_number and bank_ifsc, or vpa, are required',
  ),
  contactInvalid: bad('beneficiary_contact_details_invalid', 'beneficiary_contact_details are invalid'),
  beneIdExists: conflict('beneficiary_id_already_exists', 'beneficiary_id already exists'),
  beneExists: conflict(
    'beneficiary_already_exists',
    'a beneficiary with this bank_account_number and bank_ifsc already exists',
  ),
  sameAsSource: unprocessable(
    'beneficiary_account_same_as_source',
    'beneficiary account is the same as the source account',
  ),
  vbaNotAllowed: unprocessable('vba_bene_not_allowed', 'virtual bank accounts cannot be beneficiaries'),
} as const satisfies V2Table;
