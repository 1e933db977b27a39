import { PROBLEM_JSON } from '../problem-details.js';

/** A JSON value: what an OpenAPI document is made of. */
export type Json = string | number | boolean | null | Json[] | { [k: string]: Json };

export const ref = (name: string): Json => ({ $ref: `#/components/schemas/${name}` });
export const nullable = (type: string): Json => ({ type: [type, 'null'] });
export const str: Json = { type: 'string' };
export const int: Json = { type: 'integer' };
export const time: Json = { type: 'string', format: 'date-time' };
export const maybeTime: Json = { type: ['string', 'null'], format: 'date-time' };

export const pathParam = (name: string, description: string): Json => ({
  name,
  in: 'path',
  required: true,
  description,
  schema: str,
});

export const queryParam = (name: string, description: string, schema: Json = str): Json => ({
  name,
  in: 'query',
  required: false,
  description,
  schema,
});

export const ACCOUNT = pathParam('accountId', 'the provider account (the service default: `default`)');
export const TRANSFER = pathParam('transferId', "the payout's transferId");

/** A page of a list: its size and the previous page's `nextCursor`. */
export const pageParams = (max: number): Json[] => [
  queryParam('limit', `page size, 1 to ${max} (default 50)`, { type: 'integer' }),
  queryParam('cursor', '`nextCursor` of the previous page'),
];

const ERROR_TEXT: Record<number, string> = {
  400: 'invalid input (code invalid_input), or a body that is not JSON (code bad_request)',
  401: 'no valid bearer token (unknown, expired or revoked) and no live console session (code unauthorized; `WWW-Authenticate: Bearer`)',
  403: "the operator's role does not allow it, a token may not (decide, tokens), or it is their own proposal (code forbidden)",
  404: 'not found (also every /ops path while no operator is configured)',
  409: 'the state does not allow it now, or (a beneficiary) it exists with other details: see `code`',
  422: 'the provider refused it (code provider_refused)',
  503: 'the provider could not be asked; nothing was done (code provider_unavailable)',
  504: "the provider's answer was unclear and a check did not settle it; asking again is safe (code provider_unclear)",
  413: 'the body is larger than 1 MiB (code payload_too_large)',
  415: 'the body is not application/json (code unsupported_media_type)',
  500: 'the request failed (code internal_error); the detail says nothing more, the service log does',
  429: 'too many failed sign-ins from this address (OPS_AUTH_FAILURE_LIMIT): every request from it is refused, a valid token too, until the `Retry-After` seconds have passed',
};

/**
 * The error answers of a route: every route that wants a token may also answer 429 (failed
 * sign-ins limited per address), and any route 500. Every error is RFC 9457 problem details.
 */
export const errors = (codes: readonly number[]): Record<string, Json> =>
  Object.fromEntries(
    [...(codes.includes(401) ? [...codes, 429] : codes), 500].map((c) => [
      String(c),
      {
        description: ERROR_TEXT[c] ?? 'refused',
        content: { [PROBLEM_JSON]: { schema: ref('Problem') } },
      },
    ]),
  );
