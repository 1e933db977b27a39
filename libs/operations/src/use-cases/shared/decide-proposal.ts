import { type PayoutChange, type PayoutRow } from '#ledger';
import { OperationsError, OperationsErrorCode } from '../../operations.errors.js';
import { proposalView, type ProposalView } from '../../operations.views.js';
import { type OperatorActionEntry } from '../../operator-action.repository.js';
import { type Operator } from '../../operators.js';
import { type OperationsPorts } from '../operations.ports.js';
import { type DecideProposalCommand } from './decide-proposal.command.js';
import { actorOf, allow, allowSecondPerson } from './operator-actions.js';
import { notFound } from './refusals.js';

/** The reason a payout settled by four-eyes carries (its event's `reason`). */
export const OPERATOR_SETTLED_REASON = 'settled_by_operator';

export type DecidePorts = Pick<OperationsPorts, 'payouts' | 'ledger' | 'proposals' | 'actions'>;

/**
 * Four eyes, second pair (approve and reject): a different human, an approver signed in as
 * themselves (never through a token), decides. Humans are compared, not ways in: a proposal made
 * with a token is its issuer's, so the issuer cannot approve it. In one transaction:
 * the proposal is still open and its payout still at the proposed version, the ledger moves the
 * payout (its event, its history row with both identities), the proposal is closed. A payout that
 * moved on meanwhile closes the proposal as stale and moves nothing.
 */
export async function decideProposal(
  d: DecidePorts,
  who: Operator,
  { proposalId, note }: DecideProposalCommand,
  decision: 'approved' | 'rejected',
): Promise<ProposalView> {
  allow(who, 'decide');
  if (!/^\d{1,19}$/.test(proposalId)) throw notFound(`no proposal ${proposalId}`);
  const action = decision === 'approved' ? 'approve' : 'reject';
  // A ledger transaction: the approval's move is logged once the proposal's decision commits with it.
  const out = await d.ledger.transaction(async (tx) => {
    const c = tx.client;
    const p = await d.proposals.lock(c, proposalId);
    if (!p) throw notFound(`no proposal ${proposalId}`);
    const refuse = async (e: OperationsError) => {
      await d.actions.record(c, actionEntry(who, action, p, e.code));
      return { error: e } as const;
    };
    if (p.state !== 'open')
      return refuse(
        new OperationsError(OperationsErrorCode.ProposalDecided, `proposal ${p.id} is already ${p.state}`),
      );
    try {
      allowSecondPerson(who, p.proposedBy, `proposal ${p.id}`);
    } catch (e) {
      if (e instanceof OperationsError) return refuse(e);
      throw e;
    }
    const decider = { id: who.id, name: who.name, via: actorOf(who).via };
    if (decision === 'rejected') {
      const done = await d.proposals.decide(c, p.id, 'rejected', decider, note);
      await d.actions.record(c, actionEntry(who, action, p, 'rejected'));
      return { proposal: done ?? p } as const;
    }
    const row = await d.payouts.findOne(c, p.accountId, p.transferId);
    let moved: PayoutRow | undefined;
    if (row && row.version === p.fromVersion && row.status === 'REQUIRES_ATTENTION') {
      const change: PayoutChange = {
        row,
        to: p.outcome,
        fields: { reason: OPERATOR_SETTLED_REASON, ...(p.utr ? { utr: p.utr } : {}) },
        actor: { operatorId: p.proposedBy, approverId: who.id, proposalId: p.id },
        log: { proposalId: p.id, proposedBy: p.proposedBy, approvedBy: who.id },
      };
      [moved] = await d.ledger.apply(tx, [change], 'operations');
    }
    if (!moved) {
      await d.proposals.decide(c, p.id, 'stale', decider, note);
      return refuse(
        new OperationsError(
          OperationsErrorCode.ConcurrentChange,
          `payout ${p.transferId} moved on since the proposal (version ${p.fromVersion}); the proposal is closed as stale`,
        ),
      );
    }
    const done = await d.proposals.decide(c, p.id, 'approved', decider, note);
    await d.actions.record(c, actionEntry(who, action, p, 'approved'));
    return { proposal: done ?? p } as const;
  });
  if ('error' in out) throw out.error;
  return proposalView(out.proposal);
}

function actionEntry(
  who: Operator,
  action: 'approve' | 'reject',
  p: { id: string; payoutId: string; accountId: string; transferId: string },
  result: string,
): OperatorActionEntry {
  return {
    ...actorOf(who),
    action,
    payoutId: p.payoutId,
    accountId: p.accountId,
    transferId: p.transferId,
    proposalId: p.id,
    result,
  };
}
