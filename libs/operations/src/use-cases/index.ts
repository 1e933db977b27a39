import { AcknowledgeContradiction } from './acknowledge-contradiction/acknowledge-contradiction.use-case.js';
import { ApproveProposal } from './approve-proposal/approve-proposal.use-case.js';
import { BatchTimeline } from './batch-timeline/batch-timeline.use-case.js';
import { ConfirmAcknowledgement } from './confirm-acknowledgement/confirm-acknowledgement.use-case.js';
import { DecideBeneficiaryChange } from './decide-beneficiary-change/decide-beneficiary-change.use-case.js';
import { ListBeneficiaryProposals } from './list-beneficiary-proposals/list-beneficiary-proposals.use-case.js';
import { ExportPayouts } from './export-payouts/export-payouts.use-case.js';
import { ListDeadLetters } from './list-dead-letters/list-dead-letters.use-case.js';
import { ListDeadOutboxRows } from './list-dead-outbox-rows/list-dead-outbox-rows.use-case.js';
import { CreateBeneficiary } from './create-beneficiary/create-beneficiary.use-case.js';
import { GetBeneficiary } from './get-beneficiary/get-beneficiary.use-case.js';
import { RemoveBeneficiary } from './remove-beneficiary/remove-beneficiary.use-case.js';
import { GetBatch } from './get-batch/get-batch.use-case.js';
import { GetPayout } from './get-payout/get-payout.use-case.js';
import { ListProposals } from './list-proposals/list-proposals.use-case.js';
import { ListRequiringAttention } from './list-requiring-attention/list-requiring-attention.use-case.js';
import { type OperationsPorts } from './operations.ports.js';
import { PayoutTimeline } from './payout-timeline/payout-timeline.use-case.js';
import { ProposeSettlement } from './propose-settlement/propose-settlement.use-case.js';
import { RecheckPayout } from './recheck-payout/recheck-payout.use-case.js';
import { RejectProposal } from './reject-proposal/reject-proposal.use-case.js';
import { ReplayDeadEvent } from './replay-dead-event/replay-dead-event.use-case.js';
import { SearchPayouts } from './search-payouts/search-payouts.use-case.js';
import { DecideApproval } from './decide-approval/decide-approval.use-case.js';
import { GetApproval, ListApprovals } from './list-approvals/list-approvals.use-case.js';
import { GetFunds } from './get-funds/get-funds.use-case.js';
import { CancelHeldPayout } from './cancel-held/cancel-held.use-case.js';

// Only what the HTTP edge and the wiring need: the use cases, their commands and parse functions.
export type { OperationsPorts, ReplayDead } from './operations.ports.js';
export { parseDeadLetterPage, type DeadLetterPageCommand } from './shared/dead-letter-page.command.js';
export { parseDecideProposal, type DecideProposalCommand } from './shared/decide-proposal.command.js';
export { parseListApprovals, type ListApprovalsCommand } from './list-approvals/list-approvals.use-case.js';
export {
  parseDecideApproval,
  type DecideApprovalCommand,
} from './decide-approval/decide-approval.command.js';
export { approverIdentity, isAutomation } from './shared/approver-identity.js';
export type { BeneficiaryView } from './shared/beneficiaries.js';
export type { AccountFundsView } from './get-funds/get-funds.use-case.js';
export type { BeneficiaryProposalView } from './shared/beneficiary-proposals.js';
export {
  parseListBeneficiaryProposals,
  type ListBeneficiaryProposalsCommand,
} from './list-beneficiary-proposals/list-beneficiary-proposals.use-case.js';
export {
  parseCreateBeneficiary,
  type CreateBeneficiaryCommand,
} from './create-beneficiary/create-beneficiary.command.js';
export {
  parseAcknowledgeContradiction,
  type AcknowledgeContradictionCommand,
} from './acknowledge-contradiction/acknowledge-contradiction.command.js';
export { parseExportPayouts, type ExportPayoutsCommand } from './export-payouts/export-payouts.command.js';
export { parseListProposals, type ListProposalsCommand } from './list-proposals/list-proposals.command.js';
export {
  parseListRequiringAttention,
  type ListRequiringAttentionCommand,
} from './list-requiring-attention/list-requiring-attention.command.js';
export {
  parseProposeSettlement,
  type ProposeSettlementCommand,
} from './propose-settlement/propose-settlement.command.js';
export { parseSearchPayouts, type SearchPayoutsCommand } from './search-payouts/search-payouts.command.js';

/**
 * The operator's use cases, one per file, each under the name the routes use
 * (http/routes*.ts); every one is built on the ports it is given.
 */
export const OPERATIONS_USE_CASES = {
  getPayout: GetPayout,
  getBatch: GetBatch,
  payoutTimeline: PayoutTimeline,
  batchTimeline: BatchTimeline,
  listRequiringAttention: ListRequiringAttention,
  acknowledgeContradiction: AcknowledgeContradiction,
  confirmAcknowledgement: ConfirmAcknowledgement,
  searchPayouts: SearchPayouts,
  exportPayouts: ExportPayouts,
  recheckPayout: RecheckPayout,
  replayDeadEvent: ReplayDeadEvent,
  proposeSettlement: ProposeSettlement,
  approveProposal: ApproveProposal,
  rejectProposal: RejectProposal,
  listProposals: ListProposals,
  listDeadLetters: ListDeadLetters,
  listDeadOutboxRows: ListDeadOutboxRows,
  getBeneficiary: GetBeneficiary,
  createBeneficiary: CreateBeneficiary,
  removeBeneficiary: RemoveBeneficiary,
  decideBeneficiaryChange: DecideBeneficiaryChange,
  listBeneficiaryProposals: ListBeneficiaryProposals,
  listApprovals: ListApprovals,
  getApproval: GetApproval,
  decideApproval: DecideApproval,
  getFunds: GetFunds,
  cancelHeldPayout: CancelHeldPayout,
} as const satisfies Record<string, new (p: OperationsPorts) => object>;

export type OperationsUseCases = {
  readonly [K in keyof typeof OPERATIONS_USE_CASES]: InstanceType<(typeof OPERATIONS_USE_CASES)[K]>;
};

export function createOperationsUseCases(p: OperationsPorts): OperationsUseCases {
  return Object.fromEntries(
    Object.entries(OPERATIONS_USE_CASES).map(([name, UseCase]) => [name, new UseCase(p)]),
  ) as unknown as OperationsUseCases;
}
