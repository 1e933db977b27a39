import type pg from 'pg';
import { type ApprovalRepository } from '#ledger';
import { type BeneficiaryChange, type BeneficiaryChangeLog } from '../shared/approval-ports.js';

/** Beneficiary changes in `beneficiary_change` (issue 30), each in its own statement. */
export class LedgerBeneficiaryChangeLog implements BeneficiaryChangeLog {
  constructor(
    private readonly pool: pg.Pool,
    private readonly approvals: ApprovalRepository,
  ) {}

  record(change: BeneficiaryChange): Promise<void> {
    return this.approvals.recordBeneficiaryChange(this.pool, change);
  }
}
