import { type V2Table } from './row.js';
import { badRequest as bad } from './v2-common.table.js';

/** Process Validated Payout error table (documented rows first). */
export const V2_TRANSFER = {
  tokenExpired: bad('transfer_token_expired', 'transfer_token has expired', true),
  invalidTransferId: bad('invalid_transfer_id', 'transfer_id does not match the transfer_token', true),
  tokenInvalid: bad('transfer_token_invalid', 'transfer_token is invalid', true),
  modeInvalid: bad(
    'transfer_mode_with_transfer_token_invalid',
    'transfer_mode must be upi with a transfer_token',
    true,
  ),
  resourceNotFound: {
    http: 404,
    type: 'invalid_request_error',
    code: 'resource_not_found',
    message: 'instrument for the transfer_token does not exist',
  },
  tokenUsed: {
    http: 422,
    type: 'invalid_request_error',
    code: 'failed_to_process_request',
    message: 'transfer_token already used to initiate a payout',
  },
  amountInvalid: bad('transfer_amount_invalid', 'transfer_amount must be a decimal string, at least 1.00'),
  transferIdMissing: bad('transfer_id_missing', 'transfer_id is required'),
  tokenMissing: bad('transfer_token_missing', 'transfer_token is required'),
  modeMissing: bad('transfer_mode_missing', 'transfer_mode is required'),
  remarksInvalid: bad(
    'transfer_remarks_invalid',
    'transfer_remarks must be a string of at most 70 characters',
  ),
  fundsourceInvalid: bad('fundsource_id_invalid', 'fundsource_id must be a string'),
} as const satisfies V2Table;
