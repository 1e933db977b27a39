import { COMMON_V2_ROWS, type V2OutcomeTable } from '../core/v2-classify.js';

/** Process Validated Payout v2 errors (interface document, "v2 error object"). */
export const processValidatedPayoutOutcomes: V2OutcomeTable = [
  {
    http: 400,
    code: 'transfer_token_expired',
    outcome: 'failed',
    kind: 'expired',
    meaning: 'Transfer token older than one hour',
  },
  {
    http: 400,
    code: 'invalid_transfer_id',
    outcome: 'failed',
    kind: 'invalid-request',
    meaning: 'transfer_id differs from the one the token was issued for',
  },
  {
    http: 400,
    code: 'transfer_token_invalid',
    outcome: 'failed',
    kind: 'invalid-request',
    meaning: 'Transfer token invalid',
  },
  {
    http: 400,
    code: 'transfer_mode_with_transfer_token_invalid',
    outcome: 'failed',
    kind: 'invalid-request',
    meaning: 'Mode other than upi sent with a token',
  },
  {
    http: 404,
    code: 'resource_not_found',
    outcome: 'failed',
    kind: 'not-found',
    meaning: 'Instrument for the token does not exist',
  },
  // The token was already consumed by an initiation: like "already exists", check the status.
  {
    http: 422,
    code: 'failed_to_process_request',
    outcome: 'failed',
    kind: 'duplicate',
    meaning: 'Token already used to initiate a payout',
  },
  ...COMMON_V2_ROWS,
];
