import { type V2Row, type V2Table } from './row.js';

/** A 400 `invalid_request_error` row. */
export const badRequest = (code: string, message: string, documented = false): V2Row => ({
  http: 400,
  type: 'invalid_request_error',
  code,
  message,
  documented,
});

/** Rows every v2 call can produce (headers, body decoding, access, rate limit). */
export const V2_COMMON = {
  authFailed: {
    http: 401,
    type: 'authentication_error',
    code: 'authentication_failed',
    message: 'authentication Failed',
    documented: false,
  },
  clientIdMissing: badRequest('x-client-id_missing', 'x-client-id header is required'),
  clientSecretMissing: badRequest('x-client-secret_missing', 'x-client-secret header is required'),
  apiVersionInvalid: badRequest(
    'x-api-version_invalid',
    'x-api-version header is required, format YYYY-MM-DD',
  ),
  malformedJson: badRequest('request_body_invalid', 'request body is not valid JSON'),
  unknownField: badRequest('request_body_invalid', 'request body has an unknown field'),
  bodyTooLarge: badRequest('request_body_invalid', 'request body too large'),
  invalidBody: badRequest('request_body_invalid', 'request body must be a JSON object'),
  apisNotEnabled: {
    http: 403,
    type: 'invalid_request_error',
    code: 'apis_not_enabled',
    message: 'APIs not enabled',
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
