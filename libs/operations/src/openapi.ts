import { PROVIDER_SUB_STATES, querySchemas } from '#contracts';
import { PAYOUT_KINDS_LIST, PAYOUT_STATUSES_LIST } from './vocabulary.js';
import { CSV_COLUMNS, MAX_PAGE } from './search.js';
import { ACTION_ROLE, OPERATOR_ROLES } from './operators.js';
import { MAX_PAGE_LIMIT as DEAD_PAGE } from './dead-letters.js';
import { PROBLEM_JSON, PROBLEM_SCHEMA, PROBLEM_TITLES } from './problem-details.js';
import { fourEyesPaths, fourEyesSchemas, type OpenApiParts } from './openapi-four-eyes.js';
import { approvalPaths, approvalSchemas } from './openapi-approvals.js';

/**
 * The operations API as OpenAPI 3.1: served at GET /ops/openapi.json and checked in as
 * docs/ops-openapi.json (`npm run ops:openapi`; the test command fails when the two differ).
 * Written by hand next to the use cases: a route added to the controller without an entry here
 * fails test/ops/openapi.int-spec.ts.
 */

type Json = string | number | boolean | null | Json[] | { [k: string]: Json };

const ref = (name: string): Json => ({ $ref: `#/components/schemas/${name}` });
const nullable = (type: string): Json => ({ type: [type, 'null'] });
const str: Json = { type: 'string' };
const int: Json = { type: 'integer' };
const time: Json = { type: 'string', format: 'date-time' };

const path = (name: string, description: string): Json => ({
  name,
  in: 'path',
  required: true,
  description,
  schema: str,
});
const query = (name: string, description: string, schema: Json = str): Json => ({
  name,
  in: 'query',
  required: false,
  description,
  schema,
});

const ACCOUNT = path('accountId', 'the provider account (the service default: `default`)');
const TRANSFER = path('transferId', "the payout's transferId");

/**
 * Every route that wants a token may also answer 429 (failed sign-ins limited per address), and
 * any route 500. Every error is RFC 9457 problem details.
 */
const errors = (...codes: number[]): Record<string, Json> =>
  Object.fromEntries(
    [...(codes.includes(401) ? [...codes, 429] : codes), 500].map((c) => [
      String(c),
      {
        description: ERROR_TEXT[c] ?? 'refused',
        content: { [PROBLEM_JSON]: { schema: ref('Problem') } },
      },
    ]),
  );

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

const ok = (description: string, schema: Json, status = '200'): Record<string, Json> => ({
  [status]: { description, content: { 'application/json': { schema } } },
});

const role = (r: string): Record<string, Json> => ({ 'x-required-role': r });

const SEARCH_PARAMS: Json[] = [
  query('status', 'comma-separated statuses', {
    type: 'string',
    description: PAYOUT_STATUSES_LIST.join(', '),
  }),
  query('kind', 'comma-separated payout kinds (not with `batch`)', {
    type: 'string',
    description: PAYOUT_KINDS_LIST.join(', '),
  }),
  query(
    'subState',
    'comma-separated provider sub-states (where a payout or batch entry waits at the provider)',
    {
      type: 'string',
      description: PROVIDER_SUB_STATES.join(', '),
    },
  ),
  query('account', 'account id, exact'),
  query('from', 'created at or after (ISO 8601)', { type: 'string', format: 'date-time' }),
  query('to', 'created before (ISO 8601)', { type: 'string', format: 'date-time' }),
  query('batch', "a batchTransferId: lists that batch's entries instead of payouts"),
  query('utr', 'UTR, exact'),
  query('transferIdPrefix', 'transferId starts with this (taken literally: % and _ are not wildcards)'),
];

export function opsOpenApi(): Json {
  const parts: OpenApiParts = { ref, nullable, path, queryParam: query, ok, errors, role };
  return {
    openapi: '3.1.0',
    info: {
      title: 'payouts operations API',
      version: '1.0.0',
      description: `The operator's side of the payout service: masked lookups, search and CSV export, timelines, recheck and replay, and four-eyes settlement of REQUIRES_ATTENTION payouts. Every call needs \`Authorization: Bearer <token>\` (a configured operator's, OPS_OPERATORS, or an issued automation token, POST /ops/tokens) or the web console's session cookie (OpenID Connect sign-in, ADR 0021). Roles: ${OPERATOR_ROLES.join(' < ')}; each route says the least role it needs in \`x-required-role\`. Every action is attributed to a human (a configured operator's id; a console session's identity provider issuer and subject; an automation token's issuer): a proposal is decided by another human, signed in as themselves (no token approves, rejects, confirms or manages tokens), a contradiction is acknowledged by one person and confirmed by another, and a person's beneficiary change waits for another person's approval. Lists are newest first with an opaque \`nextCursor\` (keyset: stable, no duplicates). Every error, an unknown /ops path's 404 included, is RFC 9457 problem details (\`${PROBLEM_JSON}\`): \`type\` urn:payouts:problem:<code>, \`title\`, \`status\`, \`detail\`, \`instance\` (the path) and \`code\`. Codes: ${Object.keys(PROBLEM_TITLES).join(', ')}.`,
    },
    servers: [{ url: '/' }],
    security: [{ bearer: [] }, { session: [] }],
    paths: {
      '/ops/openapi.json': {
        get: {
          summary: 'this document',
          ...role(ACTION_ROLE.read),
          responses: { ...ok('the OpenAPI document', { type: 'object' }), ...errors(401) },
        },
      },
      '/ops/me': {
        get: {
          summary: 'who is asking (the human, their display name, how they came in), and what they may do',
          ...role(ACTION_ROLE.read),
          responses: { ...ok('the operator', ref('Me')), ...errors(401) },
        },
      },
      '/ops/payouts': {
        get: {
          summary: 'search payouts (or the entries of one batch), newest first, one page',
          ...role(ACTION_ROLE.read),
          parameters: [
            ...SEARCH_PARAMS,
            query('limit', `page size, 1 to ${MAX_PAGE} (default 50)`, { type: 'integer' }),
            query('cursor', '`nextCursor` of the previous page'),
          ],
          responses: { ...ok('one page', ref('SearchPage')), ...errors(400, 401) },
        },
      },
      '/ops/payouts/export.csv': {
        get: {
          summary: 'every payout of a search as CSV, streamed (masked, formula-safe)',
          ...role(ACTION_ROLE.read),
          parameters: SEARCH_PARAMS,
          responses: {
            '200': {
              description: `CSV with a header row: ${CSV_COLUMNS.join(', ')}. Every cell quoted; a cell starting with = + - @, tab or CR is prefixed with '.`,
              content: { 'text/csv': { schema: str } },
            },
            ...errors(400, 401),
          },
        },
      },
      '/ops/payouts/{accountId}/{transferId}': {
        get: {
          summary: 'one payout, masked',
          ...role(ACTION_ROLE.read),
          parameters: [ACCOUNT, TRANSFER],
          responses: { ...ok('the payout', ref('Payout')), ...errors(401, 404) },
        },
      },
      '/ops/payouts/{accountId}/{transferId}/timeline': {
        get: {
          summary: "a payout's current state, every state change, every operator action and proposal",
          ...role(ACTION_ROLE.read),
          parameters: [ACCOUNT, TRANSFER],
          responses: { ...ok('the timeline', ref('Timeline')), ...errors(401, 404) },
        },
      },
      '/ops/payouts/{accountId}/{transferId}/recheck': {
        post: {
          summary:
            'check now: an unclear payout becomes due; a REQUIRES_ATTENTION one goes back to UNKNOWN (recorded with the operator)',
          ...role(ACTION_ROLE.recheck),
          parameters: [ACCOUNT, TRANSFER],
          responses: { ...ok('done', ref('RecheckResult'), '202'), ...errors(401, 403, 404, 409) },
        },
      },
      ...fourEyesPaths(parts),
      '/ops/payouts/{accountId}/{transferId}/proposals': {
        post: {
          summary:
            'propose settling a REQUIRES_ATTENTION payout as SUCCESS or FAILED (four eyes: nothing moves yet)',
          ...role(ACTION_ROLE.propose),
          parameters: [ACCOUNT, TRANSFER],
          requestBody: {
            required: true,
            content: { 'application/json': { schema: ref('ProposalInput') } },
          },
          responses: {
            ...ok('the open proposal', ref('Proposal'), '201'),
            ...errors(400, 401, 403, 404, 409, 413, 415),
          },
        },
      },
      '/ops/proposals': {
        get: {
          summary: 'proposals, newest first',
          ...role(ACTION_ROLE.read),
          parameters: [
            query('state', 'open (default all)', {
              type: 'string',
              enum: ['open', 'approved', 'rejected', 'stale', 'all'],
            }),
            query('limit', `page size, 1 to ${MAX_PAGE} (default 50)`, { type: 'integer' }),
            query('cursor', '`nextCursor` of the previous page'),
          ],
          responses: { ...ok('one page', ref('ProposalPage')), ...errors(400, 401) },
        },
      },
      '/ops/proposals/{proposalId}/approve': {
        post: {
          summary:
            "approve another operator's proposal: the payout moves through the ledger (event on the topic, history with both identities)",
          ...role(ACTION_ROLE.decide),
          parameters: [path('proposalId', 'the proposal id')],
          requestBody: { required: false, content: { 'application/json': { schema: ref('DecisionInput') } } },
          responses: {
            ...ok('the approved proposal', ref('Proposal')),
            ...errors(400, 401, 403, 404, 409, 413, 415),
          },
        },
      },
      '/ops/proposals/{proposalId}/reject': {
        post: {
          summary: "reject another operator's proposal: nothing moves",
          ...role(ACTION_ROLE.decide),
          parameters: [path('proposalId', 'the proposal id')],
          requestBody: { required: false, content: { 'application/json': { schema: ref('DecisionInput') } } },
          responses: {
            ...ok('the rejected proposal', ref('Proposal')),
            ...errors(400, 401, 403, 404, 409, 413, 415),
          },
        },
      },
      '/ops/batches/{accountId}/{batchTransferId}': {
        get: {
          summary: 'one batch with its entries, masked',
          ...role(ACTION_ROLE.read),
          parameters: [ACCOUNT, path('batchTransferId', "the batch's batchTransferId")],
          responses: { ...ok('the batch', ref('Batch')), ...errors(401, 404) },
        },
      },
      '/ops/batches/{accountId}/{batchTransferId}/timeline': {
        get: {
          summary: "a batch's state changes and its entries'",
          ...role(ACTION_ROLE.read),
          parameters: [ACCOUNT, path('batchTransferId', "the batch's batchTransferId")],
          responses: { ...ok('the timeline', ref('BatchTimeline')), ...errors(401, 404) },
        },
      },
      '/ops/requires-attention': {
        get: {
          summary: 'the payouts and batches a person must look at, oldest first',
          ...role(ACTION_ROLE.read),
          parameters: [query('limit', '1 to 500 (default 100)', { type: 'integer' })],
          responses: { ...ok('the queue', ref('AttentionQueue')), ...errors(400, 401) },
        },
      },
      '/ops/contradictions/{contradictionId}/acknowledge': {
        post: {
          summary:
            'the first person: acknowledge a contradiction of a published terminal state (ADR 0018); it stays in the queue until another human confirms (POST .../confirm); the payout is not changed (recorded with the operator)',
          ...role(ACTION_ROLE.acknowledge),
          parameters: [path('contradictionId', 'the contradiction id (from the queue)')],
          requestBody: { required: false, content: { 'application/json': { schema: ref('DecisionInput') } } },
          responses: {
            ...ok('acknowledged by one person, waiting for a second', ref('Contradiction'), '202'),
            ...errors(400, 401, 403, 404, 409, 413, 415),
          },
        },
      },
      '/ops/beneficiaries/{accountId}': {
        post: {
          summary:
            'propose registering a beneficiary: nothing is asked of the provider until another human approves (POST /ops/beneficiary-proposals/{id}/approve); the details are checked now and kept sealed (recorded with the operator)',
          ...role(ACTION_ROLE.beneficiary),
          parameters: [ACCOUNT],
          requestBody: {
            required: true,
            content: { 'application/json': { schema: ref('BeneficiaryInput') } },
          },
          responses: {
            ...ok('the open proposal, masked', ref('BeneficiaryProposal'), '202'),
            ...errors(400, 401, 403, 404, 409, 413, 415),
          },
        },
      },
      '/ops/beneficiaries/{accountId}/{beneId}': {
        get: {
          summary: "a beneficiary as the account's provider API generation shows it, masked",
          ...role(ACTION_ROLE.read),
          parameters: [ACCOUNT, path('beneId', 'the beneficiary id')],
          responses: {
            ...ok('found', ref('BeneficiaryAnswer')),
            ...errors(400, 401, 404, 422, 503, 504),
          },
        },
        delete: {
          summary:
            'propose removing a beneficiary: nothing is asked of the provider until another human approves (recorded with the operator)',
          ...role(ACTION_ROLE.beneficiary),
          parameters: [ACCOUNT, path('beneId', 'the beneficiary id')],
          responses: {
            ...ok('the open proposal', ref('BeneficiaryProposal'), '202'),
            ...errors(400, 401, 403, 404, 409),
          },
        },
      },
      '/ops/tokens': {
        post: {
          summary:
            'issue an automation token: the token is in this answer only (stored as its SHA-256); it expires (`ttlHours`, default 30 days, at most OPS_TOKEN_MAX_TTL_MS); recorded with the operator',
          ...role(ACTION_ROLE.tokens),
          requestBody: { required: true, content: { 'application/json': { schema: ref('TokenInput') } } },
          responses: { ...ok('issued', ref('IssuedToken'), '201'), ...errors(400, 401, 403, 409) },
        },
        get: {
          summary: 'automation tokens, newest first, revoked and expired ones too; never a secret',
          ...role(ACTION_ROLE.tokens),
          parameters: [query('limit', 'at most this many, 1 to 500 (default 100)', int)],
          responses: {
            ...ok('the tokens', {
              type: 'object',
              properties: { tokens: { type: 'array', items: ref('Token') } },
              required: ['tokens'],
            }),
            ...errors(400, 401, 403),
          },
        },
      },
      '/ops/tokens/{tokenId}': {
        delete: {
          summary: 'revoke a token: refused from the next request on (recorded with the operator)',
          ...role(ACTION_ROLE.tokens),
          parameters: [path('tokenId', "the token's id (not the token)")],
          responses: { ...ok('revoked', ref('Token')), ...errors(401, 403, 404, 409) },
        },
      },
      '/ops/outbox/{eventId}/replay': {
        post: {
          summary: 'put a dead outbox row back to pending (recorded with the operator)',
          ...role(ACTION_ROLE.replay),
          parameters: [path('eventId', 'the event id (or the outbox row id)')],
          responses: {
            ...ok(
              'replayed',
              { type: 'object', properties: { replayed: str }, required: ['replayed'] },
              '202',
            ),
            ...errors(401, 403, 404),
          },
        },
      },
      '/ops/outbox/dead': {
        get: {
          summary: 'outbox rows the relay gave up publishing (replayable), newest first; no payload',
          ...role(ACTION_ROLE.read),
          parameters: [
            query('limit', `page size, 1 to ${DEAD_PAGE} (default 50)`, { type: 'integer' }),
            query('cursor', '`nextCursor` of the previous page'),
          ],
          responses: { ...ok('one page', ref('DeadOutboxPage')), ...errors(400, 401) },
        },
      },
      '/ops/dead-letters': {
        get: {
          summary:
            'commands refused to the dead-letter topic (their mirror rows: reason, rule and field names, never values; ADR 0007), newest first',
          ...role(ACTION_ROLE.read),
          parameters: [
            query('limit', `page size, 1 to ${DEAD_PAGE} (default 50)`, { type: 'integer' }),
            query('cursor', '`nextCursor` of the previous page'),
          ],
          responses: { ...ok('one page', ref('DeadLetterPage')), ...errors(400, 401) },
        },
      },
      ...approvalPaths({
        ...{ ref, ok, errors, role, path, query },
        readRole: ACTION_ROLE.read,
        decideRole: ACTION_ROLE.approve_payout,
        maxPage: MAX_PAGE,
      }),
    },
    components: {
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          description:
            "one operator's own token (OPS_OPERATORS: bootstrap, break-glass) or an issued automation token (POST /ops/tokens); the service keeps only its SHA-256",
        },
        session: {
          type: 'apiKey',
          in: 'cookie',
          name: 'payouts_console_session',
          description:
            "the web console's session after an OpenID Connect sign-in (/console/auth/login); a change made with it must carry the `X-Ops-Console` header",
        },
      },
      schemas: {
        ...approvalSchemas(),
        Problem: PROBLEM_SCHEMA as unknown as Json,
        ...fourEyesSchemas(parts),
        Me: {
          type: 'object',
          properties: {
            id: {
              type: 'string',
              description:
                "the human answerable: a configured operator's id, `oidc:<issuer>#<subject>` for a console session, a token's issuer",
            },
            name: { type: 'string', description: 'for display only' },
            role: { type: 'string', enum: [...OPERATOR_ROLES] },
            via: { type: 'string', description: 'configured, session or token:<name>' },
            may: { type: 'array', items: { type: 'string', enum: Object.keys(ACTION_ROLE) } },
          },
          required: ['id', 'name', 'role', 'via', 'may'],
        },
        TokenInput: {
          type: 'object',
          properties: {
            name: {
              type: 'string',
              pattern: '^[A-Za-z0-9._-]{1,64}$',
              description:
                "unique among tokens not revoked; what the token does is its issuer's, shown as via `token:<name>`",
            },
            role: {
              type: 'string',
              enum: [...OPERATOR_ROLES],
              description: "at most the issuer's; whatever it is, a token never decides nor manages tokens",
            },
            ttlHours: { type: 'number', exclusiveMinimum: 0 },
          },
          required: ['name', 'role'],
        },
        Token: {
          type: 'object',
          properties: {
            id: str,
            name: str,
            role: { type: 'string', enum: [...OPERATOR_ROLES] },
            createdBy: { type: 'string', description: "the issuer's human id: the token acts as them" },
            createdByName: str,
            createdAt: time,
            expiresAt: time,
            lastUsedAt: { type: ['string', 'null'], format: 'date-time' },
            revokedAt: { type: ['string', 'null'], format: 'date-time' },
            revokedBy: nullable('string'),
            revokedByName: nullable('string'),
          },
          required: [
            'id',
            'name',
            'role',
            'createdBy',
            'createdByName',
            'createdAt',
            'expiresAt',
            'lastUsedAt',
            'revokedAt',
            'revokedBy',
          ],
        },
        IssuedToken: {
          allOf: [
            ref('Token'),
            {
              type: 'object',
              properties: { token: { type: 'string', description: 'the token: shown once, never again' } },
              required: ['token'],
            },
          ],
        },
        Beneficiary: {
          type: ['object', 'null'],
          description:
            'masked: account numbers keep their last 4 digits, VPAs their first letters and handle',
          properties: { beneId: str, bankAccount: str, ifsc: str, vpa: str },
        },
        BeneficiaryInput: querySchemas['beneficiary.create'].properties.data as unknown as Json,
        BeneficiaryAnswer: {
          type: 'object',
          properties: {
            accountId: str,
            generation: {
              type: 'string',
              enum: ['v1', 'v2'],
              description: 'the provider API generation that answered',
            },
            result: { type: 'string', enum: ['created', 'exists', 'found', 'deleted', 'absent'] },
            beneficiary: {
              type: 'object',
              description:
                'masked: account number (last 4 digits), VPA, phone and email; status and addedOn on v2 accounts',
              properties: {
                beneId: str,
                name: str,
                bankAccount: str,
                ifsc: str,
                vpa: str,
                email: str,
                phone: str,
                city: str,
                state: str,
                status: str,
                addedOn: str,
              },
              required: ['beneId'],
            },
          },
          required: ['accountId', 'generation', 'result'],
        },
        Payout: {
          type: 'object',
          properties: {
            accountId: str,
            transferId: str,
            kind: { type: 'string', enum: [...PAYOUT_KINDS_LIST] },
            status: { type: 'string', enum: [...PAYOUT_STATUSES_LIST] },
            version: int,
            attempt: int,
            amount: { type: 'string', description: 'decimal, two places' },
            reason: nullable('string'),
            subState: {
              type: ['string', 'null'],
              enum: [...PROVIDER_SUB_STATES, null],
              description: 'where the payout waits at the provider, when it says (issue 29)',
            },
            statusCode: nullable('string'),
            referenceId: nullable('string'),
            svcTransferId: nullable('string'),
            utr: nullable('string'),
            requestId: nullable('string'),
            nextCheckAt: { type: ['string', 'null'], format: 'date-time' },
            checkCount: int,
            beneficiary: ref('Beneficiary'),
            createdAt: time,
            updatedAt: time,
          },
          required: ['accountId', 'transferId', 'kind', 'status', 'version', 'amount'],
        },
        SearchItem: {
          type: 'object',
          properties: {
            accountId: str,
            transferId: str,
            batchTransferId: { ...{ type: ['string', 'null'] }, description: 'set on a batch entry' },
            kind: { type: 'string', description: 'a payout kind, or batch_entry' },
            status: str,
            version: int,
            amount: str,
            utr: nullable('string'),
            referenceId: nullable('string'),
            reason: nullable('string'),
            subState: {
              type: ['string', 'null'],
              enum: [...PROVIDER_SUB_STATES, null],
              description: "a payout's or batch entry's provider sub-state (issue 29); null when not said",
            },
            beneficiary: ref('Beneficiary'),
            createdAt: time,
            updatedAt: time,
          },
          required: ['accountId', 'transferId', 'kind', 'status', 'version', 'amount'],
        },
        SearchPage: {
          type: 'object',
          properties: {
            items: { type: 'array', items: ref('SearchItem') },
            nextCursor: nullable('string'),
          },
          required: ['items', 'nextCursor'],
        },
        HistoryEntry: {
          type: 'object',
          properties: {
            at: time,
            subject: { type: 'string', enum: ['payout', 'batch', 'batch_entry'] },
            transferId: str,
            from: { type: ['string', 'null'], description: 'null: created' },
            to: str,
            version: int,
            cause: { type: 'string', enum: ['intake', 'executor', 'reconciler', 'webhook', 'operator'] },
            reason: nullable('string'),
            statusCode: nullable('string'),
            referenceId: nullable('string'),
            utr: nullable('string'),
            operatorId: {
              type: ['string', 'null'],
              description: 'cause operator: who (the proposer of a settlement)',
            },
            approverId: { type: ['string', 'null'], description: 'a four-eyes settlement: who approved' },
            proposalId: nullable('string'),
          },
          required: ['at', 'subject', 'transferId', 'from', 'to', 'version', 'cause'],
        },
        Action: {
          type: 'object',
          properties: {
            at: time,
            operatorId: { type: 'string', description: 'the human answerable' },
            operatorName: nullable('string'),
            via: { type: ['string', 'null'], description: 'configured, session or token:<name>' },
            role: str,
            action: {
              type: 'string',
              enum: ['recheck', 'replay', 'propose', 'approve', 'reject', 'acknowledge', 'ack_confirm'],
            },
            result: { type: 'string', description: 'what came of it, or the refusal code' },
            eventId: nullable('string'),
            proposalId: nullable('string'),
          },
          required: ['at', 'operatorId', 'role', 'action', 'result'],
        },
        Proposal: {
          type: 'object',
          properties: {
            id: str,
            accountId: str,
            transferId: str,
            fromVersion: int,
            outcome: { type: 'string', enum: ['SUCCESS', 'FAILED'] },
            utr: nullable('string'),
            note: { type: 'string', description: 'digit runs of 9 or more are masked' },
            proposedBy: { type: 'string', description: 'the human id (a token proposes as its issuer)' },
            proposedByName: str,
            proposedVia: { type: 'string', description: 'configured, session or token:<name>' },
            proposedAt: time,
            state: { type: 'string', enum: ['open', 'approved', 'rejected', 'stale'] },
            decidedBy: nullable('string'),
            decidedByName: nullable('string'),
            decidedVia: nullable('string'),
            decidedAt: { type: ['string', 'null'], format: 'date-time' },
            decisionNote: nullable('string'),
          },
          required: [
            'id',
            'accountId',
            'transferId',
            'fromVersion',
            'outcome',
            'note',
            'proposedBy',
            'state',
          ],
        },
        ProposalPage: {
          type: 'object',
          properties: { items: { type: 'array', items: ref('Proposal') }, nextCursor: nullable('string') },
          required: ['items', 'nextCursor'],
        },
        ProposalInput: {
          type: 'object',
          properties: {
            outcome: { type: 'string', enum: ['SUCCESS', 'FAILED'] },
            utr: { type: 'string', pattern: '^[A-Za-z0-9]{6,35}$', description: 'required for SUCCESS' },
            note: { type: 'string', minLength: 1, maxLength: 500, description: 'the evidence' },
            version: { type: 'integer', description: 'the payout version the operator saw' },
          },
          required: ['outcome', 'note', 'version'],
        },
        DecisionInput: {
          type: 'object',
          properties: { note: { type: 'string', maxLength: 500 } },
        },
        Timeline: {
          type: 'object',
          properties: {
            payout: ref('Payout'),
            history: { type: 'array', items: ref('HistoryEntry') },
            actions: { type: 'array', items: ref('Action') },
            proposals: { type: 'array', items: ref('Proposal') },
          },
          required: ['payout', 'history', 'actions', 'proposals'],
        },
        RecheckResult: {
          type: 'object',
          properties: { action: { type: 'string', enum: ['scheduled', 'reopened'] }, payout: ref('Payout') },
          required: ['action', 'payout'],
        },
        BatchItem: {
          type: 'object',
          properties: {
            transferId: str,
            position: int,
            amount: str,
            status: str,
            version: int,
            reason: nullable('string'),
            referenceId: nullable('string'),
            utr: nullable('string'),
            subState: {
              type: ['string', 'null'],
              enum: [...PROVIDER_SUB_STATES, null],
              description: 'where the entry waits at the provider, when it says (issue 29)',
            },
            beneficiary: ref('Beneficiary'),
          },
          required: ['transferId', 'position', 'amount', 'status', 'version'],
        },
        Batch: {
          type: 'object',
          properties: {
            accountId: str,
            batchTransferId: str,
            batchFormat: str,
            status: str,
            version: int,
            attempt: int,
            entryCount: int,
            totalAmount: str,
            reason: nullable('string'),
            statusCode: nullable('string'),
            referenceId: nullable('string'),
            requestId: nullable('string'),
            createdAt: time,
            updatedAt: { type: ['string', 'null'], format: 'date-time' },
            items: { type: 'array', items: ref('BatchItem') },
          },
          required: ['accountId', 'batchTransferId', 'status', 'version'],
        },
        BatchTimeline: {
          type: 'object',
          properties: { batch: ref('Batch'), history: { type: 'array', items: ref('HistoryEntry') } },
          required: ['batch', 'history'],
        },
        AttentionQueue: {
          type: 'object',
          properties: {
            payouts: { type: 'array', items: ref('Payout') },
            batches: { type: 'array', items: ref('Batch') },
            contradictions: {
              type: 'array',
              items: ref('Contradiction'),
              description:
                'contradictions of published terminal states not yet acknowledged by two people (`acknowledgementProposedBy`: the first is done)',
            },
          },
          required: ['payouts', 'batches', 'contradictions'],
        },
        Contradiction: {
          type: 'object',
          description:
            'a later provider signal that says a published terminal state was wrong (ADR 0018); the published state stands',
          properties: {
            id: str,
            accountId: str,
            transferId: str,
            batchTransferId: {
              type: ['string', 'null'],
              description: "set on a batch entry's contradiction: the batch the entry is in",
            },
            version: { type: 'integer' },
            kind: { enum: ['paid_after_failure', 'pending_after_failure', 'failed_after_success'] },
            published: str,
            observed: str,
            source: { enum: ['reconciler', 'webhook'] },
            eventId: str,
            seenAt: { type: 'string', format: 'date-time' },
            acknowledgementProposedBy: {
              type: ['string', 'null'],
              description: 'the first person (human id): it waits for a second to confirm',
            },
            acknowledgementProposedByName: nullable('string'),
            acknowledgementProposedAt: { type: ['string', 'null'], format: 'date-time' },
            acknowledgedBy: { type: ['string', 'null'], description: 'the second person, who confirmed' },
            acknowledgedByName: nullable('string'),
            acknowledgedAt: { type: ['string', 'null'], format: 'date-time' },
          },
          required: [
            'id',
            'accountId',
            'transferId',
            'version',
            'kind',
            'published',
            'observed',
            'source',
            'eventId',
            'seenAt',
            'acknowledgedBy',
            'acknowledgedAt',
          ],
        },
        DeadOutboxRow: {
          type: 'object',
          properties: {
            id: str,
            eventId: str,
            eventType: str,
            messageKey: str,
            topic: str,
            attempts: int,
            lastError: {
              type: ['string', 'null'],
              description: 'the broker error, scrubbed and cut to 500 characters',
            },
            createdAt: time,
          },
          required: ['id', 'eventId', 'eventType', 'messageKey', 'topic', 'attempts', 'createdAt'],
        },
        DeadOutboxPage: {
          type: 'object',
          properties: {
            items: { type: 'array', items: ref('DeadOutboxRow') },
            nextCursor: nullable('string'),
          },
          required: ['items', 'nextCursor'],
        },
        DeadLetter: {
          type: 'object',
          properties: {
            id: str,
            topic: str,
            partition: int,
            offset: str,
            reason: str,
            type: nullable('string'),
            detail: { description: 'the rule that refused it, with field names (no values)' },
            createdAt: time,
          },
          required: ['id', 'topic', 'partition', 'offset', 'reason', 'createdAt'],
        },
        DeadLetterPage: {
          type: 'object',
          properties: { items: { type: 'array', items: ref('DeadLetter') }, nextCursor: nullable('string') },
          required: ['items', 'nextCursor'],
        },
      },
    },
  };
}

/** The checked-in text: stable key order as written, two-space indent, a final newline. */
export function opsOpenApiText(): string {
  return `${JSON.stringify(opsOpenApi(), null, 2)}\n`;
}
