import { type LegacyTable } from './row.js';

/** Rows the document lists under "Common", reused by every legacy endpoint table. */
export const COMMON = {
  tokenInvalid: { subCode: '403', status: 'ERROR', message: 'Token is not valid' },
  ipNotWhitelisted: { subCode: '403', status: 'ERROR', message: 'IP not whitelisted' },
  apisNotEnabled: { subCode: '403', status: 'ERROR', message: 'APIs not enabled' },
  tokenMissing: { subCode: '412', status: 'ERROR', message: 'Token missing in the request' },
  tooManyRequests: { subCode: '429', status: 'ERROR', message: 'Too many requests' },
  methodNotAllowed: { subCode: '405', status: 'ERROR', message: 'Invalid URL or HTTP method' },
  unknownError: { subCode: '520', status: 'ERROR', message: 'Unknown error occurred, please retry later' },
  badCredentials: {
    subCode: '401',
    status: 'ERROR',
    message: 'Invalid clientId and clientSecret combination',
  },
  // Sandbox additions for input the document does not cover (bad JSON, unknown fields, size).
  malformedJson: {
    subCode: '422',
    status: 'ERROR',
    message: 'Malformed JSON in request body',
    documented: false,
  },
  unknownField: {
    subCode: '422',
    status: 'ERROR',
    message: 'Unknown field in request body',
    documented: false,
  },
  bodyTooLarge: { subCode: '422', status: 'ERROR', message: 'Request body too large', documented: false },
  invalidUrl: { subCode: '422', status: 'ERROR', message: 'Invalid request URL', documented: false },
  invalidBody: {
    subCode: '422',
    status: 'ERROR',
    message: 'Request body must be a JSON object',
    documented: false,
  },
} as const satisfies LegacyTable;

const { tokenInvalid, ipNotWhitelisted, apisNotEnabled, tokenMissing } = COMMON;
/** The access rows most legacy endpoints list. */
export const ACCESS_ROWS = { tokenInvalid, ipNotWhitelisted, apisNotEnabled, tokenMissing } as const;
