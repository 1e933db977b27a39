import { V2_BENEFICIARY_ROWS } from './create-beneficiary-v2.table.js';
import { type V2Table } from './row.js';
import { badRequest as bad } from './v2-common.table.js';

export const V2_BENEFICIARY_NOT_FOUND = {
  http: 404,
  type: 'invalid_request_error',
  code: 'beneficiary_not_found',
  message: 'beneficiary does not exist',
} as const;

/** Get Beneficiary V2 error table. */
export const V2_GET_BENEFICIARY = {
  ...V2_BENEFICIARY_ROWS,
  tooManyParams: bad(
    'too_many_parameters_in_request',
    'pass either beneficiary_id or bank_account_number and bank_ifsc',
    true,
  ),
  identifiersMissing: bad(
    'beneficiary_identifiers_missing',
    'beneficiary_id or bank_account_number and bank_ifsc are required',
    true,
  ),
  notFound: V2_BENEFICIARY_NOT_FOUND,
} as const satisfies V2Table;
