import { OperationsErrorCode } from './operations.errors.js';

/** The media type of every HTTP error of /ops and of the webhook listener (RFC 9457). */
export const PROBLEM_JSON = 'application/problem+json';

/**
 * `type` is `urn:payouts:problem:<code>`: stable, and not a web address (the service owns no
 * domain to document it on, and a link that does not resolve would mislead). The codes are
 * listed in the OpenAPI document and docs/OPERATIONS.md.
 */
export const PROBLEM_TYPE_PREFIX = 'urn:payouts:problem:';

/** An RFC 9457 problem, with the service's own `code` (the last segment of `type`) as an extension. */
export interface ProblemDetails {
  readonly type: string;
  readonly title: string;
  readonly status: number;
  readonly detail: string;
  /** The request path (never its query string, which may hold a searched account number). */
  readonly instance: string;
  readonly code: string;
}

/** Codes of the HTTP edge itself, beside the use cases' OperationsErrorCode. */
export const HTTP_PROBLEM_CODES = {
  bad_request: 'Bad request',
  unauthorized: 'Authentication required',
  not_found: 'Not found',
  method_not_allowed: 'Method not allowed',
  payload_too_large: 'Request body too large',
  unsupported_media_type: 'Unsupported media type',
  too_many_requests: 'Too many requests',
  internal_error: 'Internal error',
  unavailable: 'Service unavailable',
  /** The webhook listener's refusals (DeliveryResult). */
  bad_signature: 'Delivery not verified',
  rate_limited: 'Too many refused deliveries',
} as const;

const OPERATIONS_TITLES: Readonly<Record<OperationsErrorCode, string>> = {
  [OperationsErrorCode.NotFound]: 'Not found',
  [OperationsErrorCode.InvalidInput]: 'Invalid input',
  [OperationsErrorCode.Forbidden]: 'Not allowed for this operator',
  [OperationsErrorCode.Terminal]: 'The payout is final',
  [OperationsErrorCode.NotSubmitted]: 'Not sent to the provider yet',
  [OperationsErrorCode.InFlight]: 'A worker holds the payout',
  [OperationsErrorCode.NoStatusEndpoint]: 'No status endpoint for this kind',
  [OperationsErrorCode.ConcurrentChange]: 'Changed meanwhile',
  [OperationsErrorCode.NotHeld]: 'Not held for funds',
  [OperationsErrorCode.NotRequiringAttention]: 'Not requiring attention',
  [OperationsErrorCode.ProposalOpen]: 'A proposal is open',
  [OperationsErrorCode.ProposalDecided]: 'The proposal is decided',
  [OperationsErrorCode.Conflict]: 'Conflict',
  [OperationsErrorCode.ProviderRefused]: 'The provider refused it',
  [OperationsErrorCode.ProviderUnavailable]: 'The provider could not be asked',
  [OperationsErrorCode.ProviderUnclear]: "The provider's answer was unclear",
};

/** Every code a problem may carry, with its title (the same for every occurrence, as RFC 9457 asks). */
export const PROBLEM_TITLES: Readonly<Record<string, string>> = {
  ...HTTP_PROBLEM_CODES,
  ...OPERATIONS_TITLES,
};

/** The code of an HTTP status that came without one (a framework's or the HTTP server's own error). */
export function problemCodeOfStatus(status: number): string {
  switch (status) {
    case 400:
      return 'bad_request';
    case 401:
      return 'unauthorized';
    case 403:
      return OperationsErrorCode.Forbidden;
    case 404:
      return 'not_found';
    case 405:
      return 'method_not_allowed';
    case 409:
      return OperationsErrorCode.Conflict;
    case 413:
      return 'payload_too_large';
    case 415:
      return 'unsupported_media_type';
    case 429:
      return 'too_many_requests';
    case 503:
      return 'unavailable';
    default:
      return status >= 500 ? 'internal_error' : 'bad_request';
  }
}

/** A path is the client's text: one too long is cut (the listener takes up to 8 KiB of headers). */
const INSTANCE_MAX = 256;

/** A problem: its code's type and title, the given status, detail and request path. */
export function problemDetails(p: {
  readonly status: number;
  readonly code: string;
  readonly detail: string;
  readonly path: string;
}): ProblemDetails {
  const code = p.code in PROBLEM_TITLES ? p.code : problemCodeOfStatus(p.status);
  return {
    type: `${PROBLEM_TYPE_PREFIX}${code}`,
    title: PROBLEM_TITLES[code] ?? 'Error',
    status: p.status,
    detail: p.detail,
    instance: (p.path.split('?')[0] || '/').slice(0, INSTANCE_MAX),
    code,
  };
}

/** The problem as a JSON Schema (the OpenAPI document's `Problem`). */
export const PROBLEM_SCHEMA = {
  type: 'object',
  description:
    'RFC 9457 problem details (application/problem+json). `type` is urn:payouts:problem:<code>; `code` is the same code, for clients that switch on it.',
  properties: {
    type: { type: 'string', format: 'uri', description: 'urn:payouts:problem:<code>' },
    title: { type: 'string', description: "the code's title, the same for every occurrence" },
    status: { type: 'integer', description: 'the HTTP status' },
    detail: { type: 'string', description: 'this occurrence, in words' },
    instance: { type: 'string', description: 'the request path, without its query string' },
    code: { type: 'string', enum: Object.keys(PROBLEM_TITLES) },
  },
  required: ['type', 'title', 'status', 'detail', 'instance', 'code'],
} as const;
