import { type HoldRow } from '#ledger';
import { releaseHold } from '#pipeline';
import { approvalView, type ApprovalView } from '../../approvals.views.js';
import { OperationsError, OperationsErrorCode } from '../../operations.errors.js';
import { type OperatorActionEntry } from '../../operator-action.repository.js';
import { OPERATOR_ROLES, type Operator } from '../../operators.js';
import { type OperationsPorts } from '../operations.ports.js';
import { approverIdentity, isAutomation } from '../shared/approver-identity.js';
import { actorOf } from '../shared/operator-actions.js';
import { allow } from '../shared/operator-actions.js';
import { notFound } from '../shared/refusals.js';
import { type DecideApprovalCommand } from './decide-approval.command.js';

export type DecideApprovalPorts = Pick<
  OperationsPorts,
  'payouts' | 'batches' | 'ledger' | 'batchLedger' | 'approvals' | 'actions'
>;

const forbidden = (m: string) => new OperationsError(OperationsErrorCode.Forbidden, m);

/**
 * A person approves or rejects a payout or batch held by its account's approval policy (issue 30,
 * ADR 0024). In one transaction, on the locked hold: the person may decide it (a person, not a
 * token; of the role the hold asks for; not someone who changed a beneficiary it pays), the
 * decision is recorded (one per person: approvers are distinct), and once enough people approved,
 * or at the first rejection, the ledger moves it on: RECEIVED for the executor, or REJECTED
 * (approval_rejected). Every decision and refusal is in the operator actions, with the payout.
 */
export class DecideApproval {
  constructor(private readonly d: DecideApprovalPorts) {}

  async execute(who: Operator, c: DecideApprovalCommand): Promise<ApprovalView> {
    allow(who, 'approve_payout');
    const approvals = this.d.approvals;
    const batchLedger = this.d.batchLedger;
    if (!approvals || !batchLedger) throw notFound(`no approval hold for ${c.subject} ${c.transferId}`);
    type Out = { readonly error: OperationsError } | { readonly view: ApprovalView };
    const out = await this.d.ledger.transaction(async (tx): Promise<Out> => {
      const db = tx.client;
      const hold = await approvals.lock(db, c.subject, c.accountId, c.transferId);
      if (!hold) throw notFound(`no approval hold for ${c.subject} ${c.transferId}`);
      const payoutId = c.subject === 'payout' ? hold.subjectId : null;
      const record = (result: string) => this.d.actions.record(db, actionOf(who, c, payoutId, result));
      const refusal = refusalOf(who, hold);
      if (refusal) {
        await record(refusal.code);
        return { error: refusal };
      }
      const me = approverIdentity(who);
      const first = await approvals.decide(db, {
        holdId: hold.id,
        approver: me,
        operatorId: who.id,
        role: who.role,
        decision: c.decision,
        note: c.note,
      });
      if (!first) {
        const e = forbidden(
          `you have decided ${c.subject} ${c.transferId} already: a different person must approve it`,
        );
        await record(e.code);
        return { error: e };
      }
      const ports = { ...this.d, approvals, batchLedger };
      if (c.decision === 'reject') {
        await releaseHold(ports, tx, hold, 'rejected', { operatorId: who.id });
        await record('rejected');
      } else if (hold.approvals + 1 >= hold.approvalsNeeded) {
        const firstApprover = hold.approvedBy[0] ?? who.id;
        await releaseHold(ports, tx, hold, 'approved', {
          operatorId: firstApprover,
          ...(firstApprover === who.id ? {} : { approverId: who.id }),
        });
        await record('approved');
      } else {
        await record(`approval_${hold.approvals + 1}_of_${hold.approvalsNeeded}`);
      }
      const after = await approvals.find(db, c.subject, c.accountId, c.transferId);
      return { view: approvalView(after ?? hold, await approvals.decisions(db, hold.id)) };
    });
    if ('error' in out) throw out.error;
    return out.view;
  }
}

/** Why this person may not decide this hold now; undefined: they may. */
function refusalOf(who: Operator, hold: HoldRow): OperationsError | undefined {
  if (isAutomation(who))
    return forbidden(
      'an automation token cannot approve or reject a payout: a person must, signed in as themselves',
    );
  if (hold.state !== 'waiting')
    return new OperationsError(
      OperationsErrorCode.ProposalDecided,
      `${hold.subject} ${hold.transferId} is no longer waiting for approval (${hold.state})`,
    );
  if (hold.expiresAt.getTime() <= Date.now())
    return new OperationsError(
      OperationsErrorCode.ProposalDecided,
      `the approval of ${hold.subject} ${hold.transferId} has expired: it ends REJECTED (approval_expired)`,
    );
  if (OPERATOR_ROLES.indexOf(who.role) < OPERATOR_ROLES.indexOf(hold.approverRole))
    return forbidden(`${hold.subject} ${hold.transferId} needs the ${hold.approverRole} role to decide`);
  if (hold.excluded.includes(approverIdentity(who)))
    return forbidden(
      `you changed a beneficiary ${hold.subject} ${hold.transferId} pays: a different person must decide it`,
    );
  return undefined;
}

function actionOf(
  who: Operator,
  c: DecideApprovalCommand,
  payoutId: string | null,
  result: string,
): OperatorActionEntry {
  return {
    ...actorOf(who),
    action: c.decision,
    payoutId,
    accountId: c.accountId,
    transferId: c.transferId,
    result,
  };
}
