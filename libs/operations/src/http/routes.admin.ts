import { MAX_PAGE_LIMIT as DEAD_PAGE } from '../dead-letters.js';
import { MAX_PAGE } from '../search.js';
import { parseCreateBeneficiary } from '../use-cases/create-beneficiary/create-beneficiary.command.js';
import { parseListBeneficiaryProposals } from '../use-cases/list-beneficiary-proposals/list-beneficiary-proposals.use-case.js';
import { parseDeadLetterPage } from '../use-cases/shared/dead-letter-page.command.js';
import { parseDecideProposal } from '../use-cases/shared/decide-proposal.command.js';
import { bodyOf } from '../use-cases/shared/notes.js';
import { ACCOUNT, type Json, int, pageParams, pathParam, queryParam, ref, str } from './openapi-parts.js';
import { type OpsCall, type OpsRoute, raw } from './ops-route.js';

const BENE = pathParam('beneId', 'the beneficiary id');
const BENE_PROPOSAL = pathParam('proposalId', 'the beneficiary proposal id');
const DECISION = { required: false, schema: ref('DecisionInput') } as const;
const beneRef = (c: OpsCall) => ({ accountId: c.params['accountId']!, beneId: c.params['beneId']! });
const deadPage = (c: OpsCall) =>
  parseDeadLetterPage({ cursor: raw(c.query, 'cursor'), limit: raw(c.query, 'limit') });
const PROPOSAL_ERRORS = [400, 401, 403, 404, 409, 422, 503, 504, 413, 415];

/** Beneficiaries (a person's change waits for another's approval), automation tokens, dead rows. */
export const ADMIN_ROUTES: readonly OpsRoute[] = [
  {
    name: 'createBeneficiary',
    method: 'post',
    path: '/ops/beneficiaries/{accountId}',
    action: 'beneficiary',
    summary:
      'propose registering a beneficiary: nothing is asked of the provider until another human approves (POST /ops/beneficiary-proposals/{id}/approve); the details are checked now and kept sealed (recorded with the operator)',
    parameters: [ACCOUNT],
    body: { required: true, schema: ref('BeneficiaryInput') },
    answer: { status: 202, description: 'the open proposal, masked', schema: ref('BeneficiaryProposal') },
    errors: [400, 401, 403, 404, 409, 413, 415],
    run: (s, c) =>
      s.useCases.createBeneficiary.execute(c.who, parseCreateBeneficiary(c.params['accountId']!, c.body)),
  },
  {
    name: 'getBeneficiary',
    method: 'get',
    path: '/ops/beneficiaries/{accountId}/{beneId}',
    action: 'read',
    summary: "a beneficiary as the account's provider API generation shows it, masked",
    parameters: [ACCOUNT, BENE],
    answer: { status: 200, description: 'found', schema: ref('BeneficiaryAnswer') },
    errors: [400, 401, 404, 422, 503, 504],
    run: (s, c) => s.useCases.getBeneficiary.execute(beneRef(c)),
  },
  {
    name: 'removeBeneficiary',
    method: 'delete',
    path: '/ops/beneficiaries/{accountId}/{beneId}',
    action: 'beneficiary',
    summary:
      'propose removing a beneficiary: nothing is asked of the provider until another human approves (recorded with the operator)',
    parameters: [ACCOUNT, BENE],
    answer: { status: 202, description: 'the open proposal', schema: ref('BeneficiaryProposal') },
    errors: [400, 401, 403, 404, 409],
    run: (s, c) => s.useCases.removeBeneficiary.execute(c.who, beneRef(c)),
  },
  {
    name: 'listBeneficiaryProposals',
    method: 'get',
    path: '/ops/beneficiary-proposals',
    action: 'read',
    summary: 'beneficiary changes proposed by a person, newest first; the details masked',
    parameters: [
      queryParam('state', 'open (default all)', {
        type: 'string',
        enum: ['open', 'approved', 'rejected', 'failed', 'all'],
      }),
      ...pageParams(MAX_PAGE),
    ],
    answer: { status: 200, description: 'one page', schema: ref('BeneficiaryProposalPage') },
    errors: [400, 401],
    run: (s, c) => s.useCases.listBeneficiaryProposals.execute(parseListBeneficiaryProposals(c.query)),
  },
  {
    name: 'approveBeneficiaryChange',
    method: 'post',
    path: '/ops/beneficiary-proposals/{proposalId}/approve',
    action: 'decide',
    summary:
      "approve another person's beneficiary change: only now is the provider asked (v1 or v2, as the account's generation); its answer is kept with the proposal (`result`; a refusal leaves it `failed` and answers the refusal)",
    parameters: [BENE_PROPOSAL],
    body: DECISION,
    answer: {
      status: 200,
      description: "approved, with the provider's answer (`result`, `beneficiary` masked)",
      schema: ref('BeneficiaryProposal'),
    },
    errors: PROPOSAL_ERRORS,
    run: (s, c) =>
      s.useCases.decideBeneficiaryChange.approve(c.who, parseDecideProposal(c.params['proposalId']!, c.body)),
  },
  {
    name: 'rejectBeneficiaryChange',
    method: 'post',
    path: '/ops/beneficiary-proposals/{proposalId}/reject',
    action: 'decide',
    summary: "reject another person's beneficiary change: nothing is asked of the provider",
    parameters: [BENE_PROPOSAL],
    body: DECISION,
    answer: { status: 200, description: 'rejected', schema: ref('BeneficiaryProposal') },
    errors: PROPOSAL_ERRORS,
    run: (s, c) =>
      s.useCases.decideBeneficiaryChange.reject(c.who, parseDecideProposal(c.params['proposalId']!, c.body)),
  },
  {
    name: 'issueToken',
    method: 'post',
    path: '/ops/tokens',
    action: 'tokens',
    summary:
      'issue an automation token: the token is in this answer only (stored as its SHA-256); it expires (`ttlHours`, default 30 days, at most OPS_TOKEN_MAX_TTL_MS); recorded with the operator',
    body: { required: true, schema: ref('TokenInput') },
    answer: { status: 201, description: 'issued', schema: ref('IssuedToken') },
    errors: [400, 401, 403, 409],
    run: (s, c) => s.tokens.issue(c.who, bodyOf(c.body)),
  },
  {
    name: 'listTokens',
    method: 'get',
    path: '/ops/tokens',
    action: 'tokens',
    summary: 'automation tokens, newest first, revoked and expired ones too; never a secret',
    parameters: [queryParam('limit', 'at most this many, 1 to 500 (default 100)', int)],
    answer: {
      status: 200,
      description: 'the tokens',
      schema: {
        type: 'object',
        properties: { tokens: { type: 'array', items: ref('Token') } },
        required: ['tokens'],
      },
    },
    errors: [400, 401, 403],
    run: (s, c) => {
      const limit = raw(c.query, 'limit');
      return s.tokens.list(limit === undefined ? 100 : Number(limit));
    },
  },
  {
    name: 'revokeToken',
    method: 'delete',
    path: '/ops/tokens/{tokenId}',
    action: 'tokens',
    summary: 'revoke a token: refused from the next request on (recorded with the operator)',
    parameters: [pathParam('tokenId', "the token's id (not the token)")],
    answer: { status: 200, description: 'revoked', schema: ref('Token') },
    errors: [401, 403, 404, 409],
    run: (s, c) => s.tokens.revoke(c.who, c.params['tokenId']!),
  },
  {
    name: 'replayDeadEvent',
    method: 'post',
    path: '/ops/outbox/{eventId}/replay',
    action: 'replay',
    summary: 'put a dead outbox row back to pending (recorded with the operator)',
    parameters: [pathParam('eventId', 'the event id (or the outbox row id)')],
    answer: {
      status: 202,
      description: 'replayed',
      schema: { type: 'object', properties: { replayed: str }, required: ['replayed'] } as Json,
    },
    errors: [401, 403, 404],
    run: async (s, c) => {
      const eventId = c.params['eventId']!;
      await s.useCases.replayDeadEvent.execute(c.who, eventId);
      return { replayed: eventId };
    },
  },
  {
    name: 'listDeadOutboxRows',
    method: 'get',
    path: '/ops/outbox/dead',
    action: 'read',
    summary: 'outbox rows the relay gave up publishing (replayable), newest first; no payload',
    parameters: pageParams(DEAD_PAGE),
    answer: { status: 200, description: 'one page', schema: ref('DeadOutboxPage') },
    errors: [400, 401],
    run: (s, c) => s.useCases.listDeadOutboxRows.execute(deadPage(c)),
  },
  {
    name: 'listDeadLetters',
    method: 'get',
    path: '/ops/dead-letters',
    action: 'read',
    summary:
      'commands refused to the dead-letter topic (their mirror rows: reason, rule and field names, never values; ADR 0007), newest first',
    parameters: pageParams(DEAD_PAGE),
    answer: { status: 200, description: 'one page', schema: ref('DeadLetterPage') },
    errors: [400, 401],
    run: (s, c) => s.useCases.listDeadLetters.execute(deadPage(c)),
  },
];
