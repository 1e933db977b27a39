import { OperationsError, OperationsErrorCode } from '../operations.errors.js';
import { parseDecideApproval } from '../use-cases/decide-approval/decide-approval.command.js';
import { parseListApprovals } from '../use-cases/list-approvals/list-approvals.use-case.js';
import { MAX_PAGE } from '../search.js';
import { ACCOUNT, pathParam, queryParam, ref } from './openapi-parts.js';
import { type OpsCall, type OpsRoute } from './ops-route.js';

/** `payouts` or `batches` in the path; any other word is no route (404). */
function subjectOf(c: OpsCall): 'payout' | 'batch' {
  const kind = c.params['kind'];
  if (kind === 'payouts') return 'payout';
  if (kind === 'batches') return 'batch';
  throw new OperationsError(OperationsErrorCode.NotFound, 'Not Found');
}

const holdRef = (c: OpsCall) => ({
  subject: subjectOf(c),
  accountId: c.params['accountId']!,
  transferId: c.params['transferId']!,
});

const PARAMS = [
  pathParam('kind', '`payouts` (a single payout) or `batches` (a whole batch)'),
  ACCOUNT,
  pathParam('transferId', "the payout's transferId, or the batch's batchTransferId"),
];

const DECIDE_DESCRIPTION =
  "A person's decision, recorded with them (operator actions, the payout's or batch's history). A person decides a hold once: approvers are distinct people. Refused (403) to an automation token, to a role below the hold's `approverRole`, and to whoever changed a beneficiary it pays (`excluded`).";

function decide(decision: 'approve' | 'reject', summary: string): OpsRoute {
  return {
    name: `${decision}Hold`,
    method: 'post',
    path: `/ops/approvals/{kind}/{accountId}/{transferId}/${decision}`,
    action: 'approve_payout',
    summary,
    description: DECIDE_DESCRIPTION,
    parameters: PARAMS,
    body: { required: false, schema: ref('DecisionInput') },
    answer: { status: 200, description: 'the hold after the decision', schema: ref('Approval') },
    errors: [400, 401, 403, 404, 409],
    run: (s, c) =>
      s.useCases.decideApproval.execute(c.who, parseDecideApproval({ ...holdRef(c), decision }, c.body)),
  };
}

/** Approval before sending (issue 30): held payouts and batches, and a person's decision on one. */
export const APPROVAL_ROUTES: readonly OpsRoute[] = [
  {
    name: 'listApprovals',
    method: 'get',
    path: '/ops/approvals',
    action: 'read',
    summary: "payouts and batches waiting for approval under their account's policy, oldest first",
    parameters: [
      queryParam('accountId', 'only this account'),
      queryParam('limit', `page size, 1 to ${MAX_PAGE} (default 50)`, { type: 'integer' }),
      queryParam('after', '`next` of the previous page'),
    ],
    answer: { status: 200, description: 'one page', schema: ref('ApprovalPage') },
    errors: [400, 401],
    run: (s, c) => s.useCases.listApprovals.execute(parseListApprovals(c.query)),
  },
  {
    name: 'getApproval',
    method: 'get',
    path: '/ops/approvals/{kind}/{accountId}/{transferId}',
    action: 'read',
    summary: 'the latest approval hold of a payout or batch, with every decision on it',
    parameters: PARAMS,
    answer: { status: 200, description: 'the hold', schema: ref('Approval') },
    errors: [401, 404],
    run: (s, c) => s.useCases.getApproval.execute(holdRef(c)),
  },
  decide(
    'approve',
    'approve: once enough distinct people approved, the payout (or the whole batch) is RECEIVED again and sent',
  ),
  decide(
    'reject',
    'reject: the payout (or the whole batch) is REJECTED with reason approval_rejected; nothing was sent',
  ),
];
