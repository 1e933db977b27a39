import type pg from 'pg';
import {
  type ApprovalRepository,
  type BatchLedger,
  type BatchRepository,
  type ContradictionRepository,
  type DeadLetterRepository,
  type HistoryRepository,
  type PayoutLedger,
  type PayoutRepository,
  type SecretsCipher,
} from '#ledger';
import { type AppLogger } from '#observability';
import { type FundsView, type ManageBeneficiaries } from '#pipeline';
import { type BeneficiaryProposalRepository } from '../beneficiary-proposal.repository.js';
import { type DeadOutboxRows } from '../dead-letters.js';
import { type OperatorActionRepository } from '../operator-action.repository.js';
import { type ProposalRepository } from '../proposal.repository.js';
import { type SearchRepository } from '../search.repository.js';

/**
 * Puts a dead outbox row back to pending (the relay's replay), which unblocks its key: the row is
 * its key's head, and a pending copy of its event behind it is dropped in favour of the replayed row.
 */
export type ReplayDead = (idOrEventId: string) => Promise<'replayed' | 'not-found'>;

/** What the operations use cases are built on; each takes only the ports it uses. */
export interface OperationsPorts {
  pool: pg.Pool;
  payouts: PayoutRepository;
  batches: BatchRepository;
  /** The reopen and the settlement of a payout are state changes: through the ledger step. */
  ledger: PayoutLedger;
  history: HistoryRepository;
  search: SearchRepository;
  actions: OperatorActionRepository;
  proposals: ProposalRepository;
  replayDead: ReplayDead;
  logger: AppLogger;
  /** The dead-letter topic's mirror rows (ADR 0007). */
  deadLetters: DeadLetterRepository;
  /** The outbox's dead rows, newest first (the outbox library answers it). */
  deadOutboxRows: DeadOutboxRows;
  /** The beneficiary use case the Kafka requests use too, so both answer alike. */
  manage: ManageBeneficiaries;
  /** A person's beneficiary changes, waiting for a second person (issue 30). */
  beneProposals: BeneficiaryProposalRepository;
  /** Seals a registration's details while its proposal waits (the ledger's key). */
  cipher: SecretsCipher;
  /** Accounts the provider client knows: a beneficiary on another is refused before any call. */
  accountIds: readonly string[];
  /** Contradictions of published terminal states (ADR 0018): listed in the queue until acknowledged. */
  contradictions?: ContradictionRepository;
  /** The approval holds (issue 30) and the batch's ledger step their decisions move. */
  approvals?: ApprovalRepository;
  batchLedger?: BatchLedger;
  /** What each account has committed, and its balance as last read (issue 32). */
  funds?: FundsView;
}
