export * from './ledger.config.js';
export * from './ledger.types.js';
export * from './money.js';
export * from './secrets-cipher.js';
export * from './canonical-request.js';
export * from './state-machine.js';
export * from './events.js';
export * from './payout.repository.js';
export * from './batch.repository.js';
export * from './withdrawal-quota.repository.js';
export * from './dead-letter.repository.js';
export * from './query-answer.repository.js';
export * from './ledger-stats.repository.js';
export * from './rate-budget.repository.js';
export * from './webhook.repository.js';
export * from './ledger.ports.js';
export * from './history.repository.js';
export * from './history-partitions.repository.js';
export * from './history-maintenance.js';
export * from './contradiction.repository.js';
export * from './transfer-identity.repository.js';
// Not exported: payout-moves.repository and batch-moves.repository, the statements that change a
// state, which only the ledger's steps use (ADR 0003, amendment; the architecture check holds it),
// nor the row mappings they share with the repositories.
export type { LedgerTransaction } from './ledger-transaction.js';
export type {
  FundsClaimCandidate,
  FundsClaimFacts,
  FundsClaimResult,
  FundsClaimRound,
  FundsClaimVerdict,
  FundsDecide,
  FundsRoom,
} from './funds-claim.js';
export * from './payout-ledger.js';
export * from './batch-ledger.js';
export * from './bene-history.repository.js';
export * from './approval.repository.js';
export * from './funds.repository.js';
export * from './balance-reading.repository.js';
