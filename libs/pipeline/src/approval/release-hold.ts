import {
  type ApprovalRepository,
  type BatchLedger,
  type BatchRepository,
  type HoldRow,
  type LedgerTransaction,
  type OperatorActor,
  type PayoutLedger,
  type PayoutRepository,
} from '#ledger';

/** How a hold ends, and the reason its payout or batch then carries (its event's `reason`). */
export const HOLD_OUTCOME_REASON = {
  approved: 'approved',
  rejected: 'approval_rejected',
  expired: 'approval_expired',
} as const;
export type HoldOutcome = keyof typeof HOLD_OUTCOME_REASON;

export interface ReleaseDeps {
  readonly approvals: ApprovalRepository;
  readonly payouts: Pick<PayoutRepository, 'findOne'>;
  readonly batches: Pick<BatchRepository, 'findOne'>;
  readonly ledger: Pick<PayoutLedger, 'apply'>;
  readonly batchLedger: Pick<BatchLedger, 'apply'>;
}

/**
 * Ends a waiting hold (locked by the caller, in its ledger transaction) and moves its payout or
 * batch on through the ledger: approved, back to RECEIVED for the executor (`payouts.payout.approved`);
 * rejected or expired, REJECTED with the reason (nothing was sent). A person's outcome names them
 * (`actor`: operatorId the first approver or the rejecter, approverId the last approver);
 * an expiry is the reconciler's. False, changing nothing, when the payout or batch is no longer
 * waiting at that hold (it cannot be: only this step moves it on; a defect, logged by the caller).
 */
export async function releaseHold(
  d: ReleaseDeps,
  tx: LedgerTransaction,
  hold: HoldRow,
  outcome: HoldOutcome,
  actor?: OperatorActor,
): Promise<boolean> {
  const c = tx.client;
  const reason = HOLD_OUTCOME_REASON[outcome];
  const to = outcome === 'approved' ? ('RECEIVED' as const) : ('REJECTED' as const);
  const source = actor ? ('operations' as const) : ('reconciler' as const);
  const log = { holdId: hold.id, policyVersion: hold.policyVersion, outcome };
  let moved: boolean;
  if (hold.subject === 'payout') {
    const row = await d.payouts.findOne(c, hold.accountId, hold.transferId);
    if (!row || row.status !== 'AWAITING_APPROVAL') return false;
    const [next] = await d.ledger.apply(
      tx,
      [{ row, to, fields: { reason }, log, ...(actor ? { actor } : {}) }],
      source,
    );
    moved = next !== undefined;
  } else {
    const batch = await d.batches.findOne(c, hold.accountId, hold.transferId);
    if (!batch || batch.status !== 'AWAITING_APPROVAL') return false;
    const next = await d.batchLedger.apply(
      tx,
      { batch, to, fields: { reason }, log, ...(actor ? { actor } : {}) },
      source,
    );
    moved = next !== undefined;
  }
  if (!moved) return false;
  await d.approvals.close(c, hold.id, outcome, reason);
  return true;
}
