import { Ledger1763700000000 } from './1763700000000-ledger.js';
import { ReversalWatch1763800000000 } from './1763800000000-reversal-watch.js';
import { EventIdentity1763930000000 } from './1763930000000-event-identity.js';
import { OutboxJsonPayload1764000000000 } from './1764000000000-outbox-json-payload.js';
import { PayoutReceivedNotify1764000000001 } from './1764000000001-payout-received-notify.js';
import { RateBudget1764100000000 } from './1764100000000-rate-budget.js';
import { ProviderWebhooks1764200000000 } from './1764200000000-provider-webhooks.js';
import { OperatorSide1764250000000 } from './1764250000000-operator-side.js';
import { TraceContext1764300000000 } from './1764300000000-trace-context.js';
import { Contradictions1764410000000 } from './1764410000000-contradictions.js';
import { WebhookReopens1764420000000 } from './1764420000000-webhook-reopens.js';
import { BeneHistoryIndex1764430000000 } from './1764430000000-bene-history-index.js';
import { BeneficiaryActions1764430000001 } from './1764430000001-beneficiary-actions.js';
import { ProviderApi1764440000000 } from './1764440000000-provider-api.js';
import { OperatorSignIn1764450000000 } from './1764450000000-operator-sign-in.js';
import { HistoryPartitions1764500000000 } from './1764500000000-history-partitions.js';
import { DueCheckIndex1764500000001 } from './1764500000001-due-check-index.js';
import { SearchStatusPartial1764510000000 } from './1764510000000-search-status-partial.js';
import { OutboxWalPublication1764520000000 } from './1764520000000-outbox-wal-publication.js';
import { DropDueCheckIdx1764530000000 } from './1764530000000-drop-due-check-idx.js';
import { NegativeWatch1764610000000 } from './1764610000000-negative-watch.js';
import { ProviderSubState1764620000000 } from './1764620000000-provider-sub-state.js';
import { TransferIdentity1764630000000 } from './1764630000000-transfer-identity.js';
import { BatchEntrySubState1764640000000 } from './1764640000000-batch-entry-sub-state.js';
import { HumanIdentity1764650000000 } from './1764650000000-human-identity.js';
import { ApprovalHolds1764660000000 } from './1764660000000-approval-holds.js';
import { QueryAnswers1764670000000 } from './1764670000000-query-answers.js';
import { BalanceReadings1764686000000 } from './1764686000000-balance-readings.js';
import { TransferFees1764688000000 } from './1764688000000-transfer-fees.js';
import { FundsHolds1764689000000 } from './1764689000000-funds-holds.js';
import { CancelHeld1764689100000 } from './1764689100000-cancel-held.js';
import { FundsTaken1764692000000 } from './1764692000000-funds-taken.js';
import { FundsSentTotal1764693000000 } from './1764693000000-funds-sent-total.js';
import { ReceivedByAccount1764693100000 } from './1764693100000-received-by-account.js';
import { BatchTakenOnCompletion1764693200000 } from './1764693200000-batch-taken-on-completion.js';

/** Every migration, in order. Listed explicitly: no globbing of compiled files at run time. */
export const migrations = [
  Ledger1763700000000,
  ReversalWatch1763800000000,
  EventIdentity1763930000000,
  OutboxJsonPayload1764000000000,
  PayoutReceivedNotify1764000000001,
  RateBudget1764100000000,
  ProviderWebhooks1764200000000,
  OperatorSide1764250000000,
  TraceContext1764300000000,
  Contradictions1764410000000,
  WebhookReopens1764420000000,
  BeneHistoryIndex1764430000000,
  BeneficiaryActions1764430000001,
  ProviderApi1764440000000,
  OperatorSignIn1764450000000,
  HistoryPartitions1764500000000,
  DueCheckIndex1764500000001,
  SearchStatusPartial1764510000000,
  OutboxWalPublication1764520000000,
  DropDueCheckIdx1764530000000,
  NegativeWatch1764610000000,
  ProviderSubState1764620000000,
  TransferIdentity1764630000000,
  BatchEntrySubState1764640000000,
  HumanIdentity1764650000000,
  ApprovalHolds1764660000000,
  QueryAnswers1764670000000,
  BalanceReadings1764686000000,
  TransferFees1764688000000,
  FundsHolds1764689000000,
  CancelHeld1764689100000,
  FundsTaken1764692000000,
  FundsSentTotal1764693000000,
  ReceivedByAccount1764693100000,
  BatchTakenOnCompletion1764693200000,
];
