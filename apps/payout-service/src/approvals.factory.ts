import type pg from 'pg';
import {
  ApprovalRepository,
  type BatchLedger,
  type BatchRepository,
  type PayoutLedger,
  type PayoutRepository,
} from '#ledger';
import { type AppLogger, type WorkerMetricsPort } from '#observability';
import {
  ApprovalExpiryWorker,
  ApprovalGate,
  approvalPolicies,
  LedgerBeneficiaryChangeLog,
  type PipelineConfig,
} from '#pipeline';

/**
 * Approval before sending (issue 30): the intake's gate only when some account has a policy (no
 * policy, no extra work at intake), the reconciler role's expiry, and the log of beneficiary
 * changes both beneficiary paths write.
 */
export function createApprovals(i: {
  config: PipelineConfig;
  pool: pg.Pool;
  payouts: PayoutRepository;
  batches: BatchRepository;
  payoutLedger: PayoutLedger;
  batchLedger: BatchLedger;
  logger: AppLogger;
  workerMetrics?: WorkerMetricsPort;
}) {
  const approvals = new ApprovalRepository();
  const policies = approvalPolicies(i.config);
  const ledgers = { ledger: i.payoutLedger, batchLedger: i.batchLedger };
  return {
    approvals,
    beneficiaryChanges: new LedgerBeneficiaryChangeLog(i.pool, approvals),
    approvalGate: policies.size > 0 ? new ApprovalGate({ policies, approvals, ...ledgers }) : undefined,
    approvalExpiry: new ApprovalExpiryWorker(
      {
        approvals,
        payouts: i.payouts,
        batches: i.batches,
        ...ledgers,
        transaction: (work) => i.payoutLedger.transaction(work),
        logger: i.logger,
        workerMetrics: i.workerMetrics,
      },
      { pollMs: i.config.APPROVAL_EXPIRY_POLL_MS },
    ),
  };
}
