import { type BatchRow, type LedgerTransaction, type PayoutRow } from '#ledger';

/**
 * The approval policy at intake (issue 30; approval/approval-gate.ts): in intake's own
 * transaction, the new payouts and batches a rule of their account's policy catches move to
 * AWAITING_APPROVAL, with their holds. Absent when no account has a policy: intake then costs
 * nothing more.
 */
export interface ApprovalHolds {
  hold(tx: LedgerTransaction, payouts: readonly PayoutRow[], batches: readonly HeldBatch[]): Promise<void>;
}

/** A new batch and its entries as commanded (each with its amount, and its beneId where it names one). */
export interface HeldBatch {
  readonly row: BatchRow;
  readonly entries: ReadonlyArray<{ readonly amount: string; readonly beneId?: string }>;
}

/** A beneficiary create or remove, by a person (`ops`, with their id) or a Kafka request (`queries`). */
export interface BeneficiaryChange {
  readonly accountId: string;
  readonly beneId: string;
  readonly change: 'created' | 'removed';
  readonly source: 'ops' | 'queries';
  readonly operatorId: string | null;
}

/**
 * Where beneficiary changes are recorded, before the provider is asked (an attempt counts: the
 * approval rule "instrument changed within a period" errs on the side of a hold).
 */
export interface BeneficiaryChangeLog {
  record(change: BeneficiaryChange): Promise<void>;
}
