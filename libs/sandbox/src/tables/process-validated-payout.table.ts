import { type V2Row, type V2Table } from './row.js';

const bad = (code: string, message: string, documented = false): V2Row => ({
  http: 400,
  type: 'invalid_request_error',
  code,
  message,
  documented,
});

/** Process Validated Payout / v2 status error table (documented rows first). */
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
  statusIdMissing: bad('transfer_id_missing', 'transfer_id or svc_transfer_id is required'),
  transferNotFound: {
    http: 404,
    type: 'invalid_request_error',
    code: 'transfer_id_not_found',
    message: 'transfer_id does not exist',
    documented: false,
  },
  svcTransferNotFound: {
    http: 404,
    type: 'invalid_request_error',
    code: 'svc_transfer_id_not_found',
    message: 'svc_transfer_id does not exist',
    documented: false,
  },
} as const satisfies V2Table;

/** Rows every v2 call can produce (headers, body decoding, access, rate limit). */
export const V2_COMMON = {
  authFailed: {
    http: 401,
    type: 'authentication_error',
    code: 'authentication_failed',
    message: 'authentication Failed',
    documented: false,
  },
  clientIdMissing: bad('x-client-id_missing', 'x-client-id header is required'),
  clientSecretMissing: bad('x-client-secret_missing', 'x-client-secret header is required'),
  apiVersionInvalid: bad('x-api-version_invalid', 'x-api-version header is required, format YYYY-MM-DD'),
  malformedJson: bad('request_body_invalid', 'request body is not valid JSON'),
  unknownField: bad('request_body_invalid', 'request body has an unknown field'),
  bodyTooLarge: bad('request_body_invalid', 'request body too large'),
  invalidBody: bad('request_body_invalid', 'request body must be a JSON object'),
  apisNotEnabled: {
    http: 403,
    type: 'invalid_request_error',
    code: 'apis_not_enabled',
    message: 'APIs not enabled',
    documented: false,
  },
  rateLimited: {
    http: 429,
    type: 'rate_limit_error',
    code: 'rate_limit_exceeded',
    message: 'Too many requests',
    documented: false,
  },
  internalError: {
    http: 500,
    type: 'api_error',
    code: 'internal_error',
    message: 'internal error',
    documented: false,
  },
} as const satisfies V2Table;

/** Create SDK authentication token. */
export const V2_SDK_TOKEN = {
  appIdInvalid: bad('app_id_invalid', 'app_id is required'),
  productInvalid: bad('product_invalid', 'product must be VKYC'),
  metadataInvalid: bad('metadata_invalid', 'metadata must be an object with vkyc_request_id'),
  userInvalid: bad(
    'authenticated_user_invalid',
    'authenticated_user must have identifier_type and identifier_value',
  ),
} as const satisfies V2Table;

/** Thrown by v2 handler steps; rendered by the v2 route wrapper. */
export class V2Answer extends Error {
  constructor(readonly row: V2Row) {
    super(row.message);
    this.name = 'V2Answer';
  }
}

export function failV2(row: V2Row): never {
  throw new V2Answer(row);
}
