import { PROVIDER_SUB_STATES } from '#contracts';
import { ACTION_ROLE, mayDo, type OperatorAction } from '../operators.js';
import { CSV_COLUMNS, csvHeader, csvLine, MAX_PAGE } from '../search.js';
import { PAYOUT_KINDS_LIST, PAYOUT_STATUSES_LIST } from '../vocabulary.js';
import { parseAcknowledgeContradiction } from '../use-cases/acknowledge-contradiction/acknowledge-contradiction.command.js';
import { parseExportPayouts } from '../use-cases/export-payouts/export-payouts.command.js';
import { parseListProposals } from '../use-cases/list-proposals/list-proposals.command.js';
import { parseListRequiringAttention } from '../use-cases/list-requiring-attention/list-requiring-attention.command.js';
import { parseProposeSettlement } from '../use-cases/propose-settlement/propose-settlement.command.js';
import { parseSearchPayouts } from '../use-cases/search-payouts/search-payouts.command.js';
import { parseDecideProposal } from '../use-cases/shared/decide-proposal.command.js';
import { ACCOUNT, type Json, pageParams, pathParam, queryParam, ref, TRANSFER } from './openapi-parts.js';
import { type OpsRoute, raw } from './ops-route.js';

const SEARCH_PARAMS: Json[] = [
  queryParam('status', 'comma-separated statuses', {
    type: 'string',
    description: PAYOUT_STATUSES_LIST.join(', '),
  }),
  queryParam('kind', 'comma-separated payout kinds (not with `batch`)', {
    type: 'string',
    description: PAYOUT_KINDS_LIST.join(', '),
  }),
  queryParam(
    'subState',
    'comma-separated provider sub-states (where a payout or batch entry waits at the provider)',
    { type: 'string', description: PROVIDER_SUB_STATES.join(', ') },
  ),
  queryParam('account', 'account id, exact'),
  queryParam('from', 'created at or after (ISO 8601)', { type: 'string', format: 'date-time' }),
  queryParam('to', 'created before (ISO 8601)', { type: 'string', format: 'date-time' }),
  queryParam('batch', "a batchTransferId: lists that batch's entries instead of payouts"),
  queryParam('utr', 'UTR, exact'),
  queryParam('transferIdPrefix', 'transferId starts with this (taken literally: % and _ are not wildcards)'),
];

const payoutRef = (c: { params: Readonly<Record<string, string>> }) => ({
  accountId: c.params['accountId']!,
  transferId: c.params['transferId']!,
});
const batchRef = (c: { params: Readonly<Record<string, string>> }) => ({
  accountId: c.params['accountId']!,
  batchTransferId: c.params['batchTransferId']!,
});
const BATCH_PARAMS = [ACCOUNT, pathParam('batchTransferId', "the batch's batchTransferId")];
const PROPOSAL = pathParam('proposalId', 'the proposal id');
const CONTRADICTION = pathParam('contradictionId', 'the contradiction id (from the queue)');
const DECISION = { required: false, schema: ref('DecisionInput') } as const;
const ACKNOWLEDGEMENT = { required: false, schema: ref('AcknowledgementInput') } as const;

/** The document, who is asking, and the payouts, batches and settlements of the operations API. */
export const PAYOUT_ROUTES: readonly OpsRoute[] = [
  {
    name: 'openapi',
    method: 'get',
    path: '/ops/openapi.json',
    action: 'read',
    summary: 'this document',
    answer: { status: 200, description: 'the OpenAPI document', schema: { type: 'object' } },
    errors: [401],
    run: (s) => s.openApi(),
  },
  {
    name: 'me',
    method: 'get',
    path: '/ops/me',
    action: 'read',
    summary: 'who is asking (the human, their display name, how they came in), and what they may do',
    answer: { status: 200, description: 'the operator', schema: ref('Me') },
    errors: [401],
    run: (_, { who }) => {
      const may = (Object.keys(ACTION_ROLE) as OperatorAction[]).filter((a) => mayDo(who, a));
      const via = who.via.kind === 'token' ? `token:${who.via.tokenName}` : who.via.kind;
      return { id: who.id, name: who.name, role: who.role, via, may };
    },
  },
  {
    name: 'searchPayouts',
    method: 'get',
    path: '/ops/payouts',
    action: 'read',
    summary: 'search payouts (or the entries of one batch), newest first, one page',
    parameters: [...SEARCH_PARAMS, ...pageParams(MAX_PAGE)],
    answer: { status: 200, description: 'one page', schema: ref('SearchPage') },
    errors: [400, 401],
    run: (s, c) => s.useCases.searchPayouts.execute(parseSearchPayouts(c.query)),
  },
  {
    name: 'exportPayouts',
    method: 'get',
    path: '/ops/payouts/export.csv',
    action: 'read',
    summary: 'every payout of a search as CSV, streamed (masked, formula-safe)',
    parameters: SEARCH_PARAMS,
    answer: {
      status: 200,
      description: `CSV with a header row: ${CSV_COLUMNS.join(', ')}. Every cell quoted; a cell starting with = + - @, tab or CR is prefixed with '.`,
      csv: 'payouts.csv',
    },
    errors: [400, 401],
    run: (s, c) => {
      const rows = s.useCases.exportPayouts.execute(parseExportPayouts(c.query));
      return (async function* csv() {
        yield csvHeader();
        for await (const r of rows) yield csvLine(r);
      })();
    },
  },
  {
    name: 'getPayout',
    method: 'get',
    path: '/ops/payouts/{accountId}/{transferId}',
    action: 'read',
    summary: 'one payout, masked',
    parameters: [ACCOUNT, TRANSFER],
    answer: { status: 200, description: 'the payout', schema: ref('Payout') },
    errors: [401, 404],
    run: (s, c) => s.useCases.getPayout.execute(payoutRef(c)),
  },
  {
    name: 'payoutTimeline',
    method: 'get',
    path: '/ops/payouts/{accountId}/{transferId}/timeline',
    action: 'read',
    summary: "a payout's current state, every state change, every operator action and proposal",
    parameters: [ACCOUNT, TRANSFER],
    answer: { status: 200, description: 'the timeline', schema: ref('Timeline') },
    errors: [401, 404],
    run: (s, c) => s.useCases.payoutTimeline.execute(payoutRef(c)),
  },
  {
    name: 'recheckPayout',
    method: 'post',
    path: '/ops/payouts/{accountId}/{transferId}/recheck',
    action: 'recheck',
    summary:
      'check now: an unclear payout becomes due; a REQUIRES_ATTENTION one goes back to UNKNOWN (recorded with the operator)',
    parameters: [ACCOUNT, TRANSFER],
    answer: { status: 202, description: 'done', schema: ref('RecheckResult') },
    errors: [401, 403, 404, 409],
    run: (s, c) => s.useCases.recheckPayout.execute(c.who, payoutRef(c)),
  },
  {
    name: 'cancelHeldPayout',
    method: 'post',
    path: '/ops/payouts/{accountId}/{transferId}/cancel-hold',
    action: 'cancel_held',
    summary:
      'cancel a payout held for funds (HELD_FOR_FUNDS, never sent): it ends REJECTED, reason cancelled_while_held (recorded with the operator)',
    parameters: [ACCOUNT, TRANSFER],
    answer: { status: 200, description: 'the payout, REJECTED', schema: ref('Payout') },
    errors: [401, 403, 404, 409],
    run: (s, c) => s.useCases.cancelHeldPayout.execute(c.who, payoutRef(c)),
  },
  {
    name: 'proposeSettlement',
    method: 'post',
    path: '/ops/payouts/{accountId}/{transferId}/proposals',
    action: 'propose',
    summary:
      'propose settling a REQUIRES_ATTENTION payout as SUCCESS or FAILED (four eyes: nothing moves yet)',
    parameters: [ACCOUNT, TRANSFER],
    body: { required: true, schema: ref('ProposalInput') },
    answer: { status: 201, description: 'the open proposal', schema: ref('Proposal') },
    errors: [400, 401, 403, 404, 409, 413, 415],
    run: (s, c) => s.useCases.proposeSettlement.execute(c.who, parseProposeSettlement(payoutRef(c), c.body)),
  },
  {
    name: 'listProposals',
    method: 'get',
    path: '/ops/proposals',
    action: 'read',
    summary: 'proposals, newest first',
    parameters: [
      queryParam('state', 'open (default all)', {
        type: 'string',
        enum: ['open', 'approved', 'rejected', 'stale', 'all'],
      }),
      ...pageParams(MAX_PAGE),
    ],
    answer: { status: 200, description: 'one page', schema: ref('ProposalPage') },
    errors: [400, 401],
    run: (s, c) => s.useCases.listProposals.execute(parseListProposals(c.query)),
  },
  {
    name: 'approveProposal',
    method: 'post',
    path: '/ops/proposals/{proposalId}/approve',
    action: 'decide',
    summary:
      "approve another operator's proposal: the payout moves through the ledger (event on the topic, history with both identities)",
    parameters: [PROPOSAL],
    body: DECISION,
    answer: { status: 200, description: 'the approved proposal', schema: ref('Proposal') },
    errors: [400, 401, 403, 404, 409, 413, 415],
    run: (s, c) =>
      s.useCases.approveProposal.execute(c.who, parseDecideProposal(c.params['proposalId']!, c.body)),
  },
  {
    name: 'rejectProposal',
    method: 'post',
    path: '/ops/proposals/{proposalId}/reject',
    action: 'decide',
    summary: "reject another operator's proposal: nothing moves",
    parameters: [PROPOSAL],
    body: DECISION,
    answer: { status: 200, description: 'the rejected proposal', schema: ref('Proposal') },
    errors: [400, 401, 403, 404, 409, 413, 415],
    run: (s, c) =>
      s.useCases.rejectProposal.execute(c.who, parseDecideProposal(c.params['proposalId']!, c.body)),
  },
  {
    name: 'getBatch',
    method: 'get',
    path: '/ops/batches/{accountId}/{batchTransferId}',
    action: 'read',
    summary: 'one batch with its entries, masked',
    parameters: BATCH_PARAMS,
    answer: { status: 200, description: 'the batch', schema: ref('Batch') },
    errors: [401, 404],
    run: (s, c) => s.useCases.getBatch.execute(batchRef(c)),
  },
  {
    name: 'batchTimeline',
    method: 'get',
    path: '/ops/batches/{accountId}/{batchTransferId}/timeline',
    action: 'read',
    summary: "a batch's state changes and its entries'",
    parameters: BATCH_PARAMS,
    answer: { status: 200, description: 'the timeline', schema: ref('BatchTimeline') },
    errors: [401, 404],
    run: (s, c) => s.useCases.batchTimeline.execute(batchRef(c)),
  },
  {
    name: 'listRequiringAttention',
    method: 'get',
    path: '/ops/requires-attention',
    action: 'read',
    summary: 'the payouts and batches a person must look at, oldest first',
    parameters: [queryParam('limit', '1 to 500 (default 100)', { type: 'integer' })],
    answer: { status: 200, description: 'the queue', schema: ref('AttentionQueue') },
    errors: [400, 401],
    run: (s, c) =>
      s.useCases.listRequiringAttention.execute(
        parseListRequiringAttention({ limit: raw(c.query, 'limit') }),
      ),
  },
  {
    name: 'acknowledgeContradiction',
    method: 'post',
    path: '/ops/contradictions/{contradictionId}/acknowledge',
    action: 'acknowledge',
    summary:
      'the first person: acknowledge a contradiction of a published terminal state (ADR 0018); it stays in the queue until another human confirms (POST .../confirm); the payout is not changed (recorded with the operator)',
    parameters: [CONTRADICTION],
    body: ACKNOWLEDGEMENT,
    answer: {
      status: 202,
      description: 'acknowledged by one person, waiting for a second',
      schema: ref('Contradiction'),
    },
    errors: [400, 401, 403, 404, 409, 413, 415],
    run: (s, c) =>
      s.useCases.acknowledgeContradiction.execute(
        c.who,
        parseAcknowledgeContradiction(c.params['contradictionId']!, c.body),
      ),
  },
  {
    name: 'confirmAcknowledgement',
    method: 'post',
    path: '/ops/contradictions/{contradictionId}/confirm',
    action: 'decide',
    summary:
      'the second person: confirm the acknowledgement of a contradiction that another human acknowledged; it leaves the queue (never by a token, never by the one who acknowledged it)',
    parameters: [CONTRADICTION],
    body: ACKNOWLEDGEMENT,
    answer: { status: 200, description: 'the acknowledged contradiction', schema: ref('Contradiction') },
    errors: [400, 401, 403, 404, 409, 413, 415],
    run: (s, c) =>
      s.useCases.confirmAcknowledgement.execute(
        c.who,
        parseAcknowledgeContradiction(c.params['contradictionId']!, c.body),
      ),
  },
];
