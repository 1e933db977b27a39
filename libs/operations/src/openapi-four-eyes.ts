import { ACTION_ROLE } from './operators.js';
import { MAX_PAGE } from './search.js';

type Json = string | number | boolean | null | Json[] | { [k: string]: Json };

/** The document's own helpers (openapi.ts), passed in: this file only adds its routes. */
export interface OpenApiParts {
  readonly ref: (name: string) => Json;
  readonly nullable: (type: string) => Json;
  readonly path: (name: string, description: string) => Json;
  readonly queryParam: (name: string, description: string, schema?: Json) => Json;
  readonly ok: (description: string, schema: Json, status?: string) => Record<string, Json>;
  readonly errors: (...codes: number[]) => Record<string, Json>;
  readonly role: (r: string) => Record<string, Json>;
}

const str: Json = { type: 'string' };
const time: Json = { type: 'string', format: 'date-time' };

/**
 * The second person's routes (issue 30): a contradiction's acknowledgement confirmed, a person's
 * beneficiary change approved or rejected (OpsFourEyesController).
 */
export function fourEyesPaths(h: OpenApiParts): Record<string, Json> {
  const decide = (summary: string, answer: string): Json => ({
    summary,
    ...h.role(ACTION_ROLE.decide),
    parameters: [h.path('proposalId', 'the beneficiary proposal id')],
    requestBody: { required: false, content: { 'application/json': { schema: h.ref('DecisionInput') } } },
    responses: {
      ...h.ok(answer, h.ref('BeneficiaryProposal')),
      ...h.errors(400, 401, 403, 404, 409, 422, 503, 504, 413, 415),
    },
  });
  return {
    '/ops/contradictions/{contradictionId}/confirm': {
      post: {
        summary:
          'the second person: confirm the acknowledgement of a contradiction that another human acknowledged; it leaves the queue (never by a token, never by the one who acknowledged it)',
        ...h.role(ACTION_ROLE.decide),
        parameters: [h.path('contradictionId', 'the contradiction id (from the queue)')],
        requestBody: { required: false, content: { 'application/json': { schema: h.ref('DecisionInput') } } },
        responses: {
          ...h.ok('the acknowledged contradiction', h.ref('Contradiction')),
          ...h.errors(400, 401, 403, 404, 409, 413, 415),
        },
      },
    },
    '/ops/beneficiary-proposals': {
      get: {
        summary: 'beneficiary changes proposed by a person, newest first; the details masked',
        ...h.role(ACTION_ROLE.read),
        parameters: [
          h.queryParam('state', 'open (default all)', {
            type: 'string',
            enum: ['open', 'approved', 'rejected', 'failed', 'all'],
          }),
          h.queryParam('limit', `page size, 1 to ${MAX_PAGE} (default 50)`, { type: 'integer' }),
          h.queryParam('cursor', '`nextCursor` of the previous page'),
        ],
        responses: { ...h.ok('one page', h.ref('BeneficiaryProposalPage')), ...h.errors(400, 401) },
      },
    },
    '/ops/beneficiary-proposals/{proposalId}/approve': {
      post: decide(
        "approve another person's beneficiary change: only now is the provider asked (v1 or v2, as the account's generation); its answer is kept with the proposal (`result`; a refusal leaves it `failed` and answers the refusal)",
        "approved, with the provider's answer (`result`, `beneficiary` masked)",
      ),
    },
    '/ops/beneficiary-proposals/{proposalId}/reject': {
      post: decide(
        "reject another person's beneficiary change: nothing is asked of the provider",
        'rejected',
      ),
    },
  };
}

export function fourEyesSchemas(h: OpenApiParts): Record<string, Json> {
  return {
    BeneficiaryProposal: {
      type: 'object',
      description:
        'a change of a beneficiary made by a person, waiting for (or decided by) another human (issue 30)',
      properties: {
        id: str,
        accountId: str,
        beneId: str,
        change: { type: 'string', enum: ['create', 'delete'] },
        summary: {
          type: ['object', 'null'],
          description: 'a registration: its details, masked (account number, VPA, phone, e-mail)',
        },
        proposedBy: { type: 'string', description: 'the human id of the proposer' },
        proposedByName: str,
        proposedVia: { type: 'string', description: 'configured, session or token:<name>' },
        proposedAt: time,
        state: { type: 'string', enum: ['open', 'approved', 'rejected', 'failed'] },
        decidedBy: h.nullable('string'),
        decidedByName: h.nullable('string'),
        decidedVia: h.nullable('string'),
        decidedAt: { type: ['string', 'null'], format: 'date-time' },
        decisionNote: h.nullable('string'),
        result: {
          type: ['string', 'null'],
          description:
            "the provider's answer once approved (created, exists, deleted, absent), or the refusal's code (failed)",
        },
        generation: { type: 'string', enum: ['v1', 'v2'] },
        beneficiary: { type: 'object', description: 'the answer of an approval: the beneficiary, masked' },
      },
      required: [
        'id',
        'accountId',
        'beneId',
        'change',
        'proposedBy',
        'proposedByName',
        'proposedVia',
        'state',
      ],
    },
    BeneficiaryProposalPage: {
      type: 'object',
      properties: {
        items: { type: 'array', items: h.ref('BeneficiaryProposal') },
        nextCursor: h.nullable('string'),
      },
      required: ['items', 'nextCursor'],
    },
  };
}
