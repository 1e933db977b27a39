import { type DecisionRow, type HoldRow } from '#ledger';

/** A payout or batch waiting for (or decided by) people under its account's approval policy. */
export interface ApprovalView {
  holdId: string;
  subject: 'payout' | 'batch';
  accountId: string;
  /** The payout's transferId or the batch's batchTransferId. */
  transferId: string;
  amount: string;
  /** The rules that caught it, each with what it saw. */
  rules: Array<{ rule: string; detail: string }>;
  policyVersion: string;
  approvalsNeeded: number;
  approvals: number;
  approvedBy: string[];
  approverRole: string;
  /** People who may not approve it (they changed a beneficiary it pays). */
  excluded: string[];
  state: string;
  reason: string | null;
  createdAt: string;
  expiresAt: string;
  decidedAt: string | null;
  decisions?: Array<{ operatorId: string; role: string; decision: string; note: string | null; at: string }>;
}

export function approvalView(h: HoldRow, decisions?: readonly DecisionRow[]): ApprovalView {
  return {
    holdId: h.id,
    subject: h.subject,
    accountId: h.accountId,
    transferId: h.transferId,
    amount: h.amount,
    rules: h.rules.map((r) => ({ rule: r.rule, detail: r.detail })),
    policyVersion: h.policyVersion,
    approvalsNeeded: h.approvalsNeeded,
    approvals: h.approvals,
    approvedBy: h.approvedBy,
    approverRole: h.approverRole,
    excluded: h.excluded,
    state: h.state,
    reason: h.reason,
    createdAt: h.createdAt.toISOString(),
    expiresAt: h.expiresAt.toISOString(),
    decidedAt: h.decidedAt?.toISOString() ?? null,
    ...(decisions
      ? {
          decisions: decisions.map((d) => ({
            operatorId: d.operatorId,
            role: d.role,
            decision: d.decision,
            note: d.note,
            at: d.at.toISOString(),
          })),
        }
      : {}),
  };
}
