import {
  type BatchFormat,
  type BatchStatus,
  type PayoutKind,
  type PayoutStatus,
  type ProviderApi,
  type ProviderSubState,
  type TransferFee,
} from '#contracts';
import { type SealedSecret } from './secrets-cipher.js';

/** A payout's kind: the contracts' list (one per `payout.<kind>` command but the batch's). */
export type { PayoutKind };

/** A payout row as the repository returns it. Amounts are decimal strings. */
export interface PayoutRow {
  id: string;
  accountId: string;
  transferId: string;
  kind: PayoutKind;
  requestHash: string;
  request: Record<string, unknown>;
  requestSecrets: Record<string, SealedSecret> | null;
  /** What the last attempt or check recorded; `processed: false` marks an attempt the provider did not process. */
  lastError: Record<string, unknown> | null;
  amount: string;
  status: PayoutStatus;
  version: number;
  attempt: number;
  statusCode: string | null;
  reason: string | null;
  referenceId: string | null;
  svcTransferId: string | null;
  utr: string | null;
  requestId: string | null;
  nextCheckAt: Date | null;
  checkCount: number;
  createdAt: Date;
  /** Moves on any write, also a reschedule. */
  updatedAt: Date;
  /** When the current version began: the time of its event (moves only with `version`). */
  stateChangedAt: Date;
  /** The W3C traceparent of the command's trace (ADR 0015); its events carry it. */
  traceparent?: string | null;
  /**
   * When a person's recheck or a webhook last took it out of REQUIRES_ATTENTION; null: never.
   * Such a payout is settled by the provider's word or by four eyes, never by "not received".
   */
  reopenedAt?: Date | null;
  /**
   * The provider API generation it was sent on (set at intake, never changed); every send, re-send
   * and check uses it. Absent only on rows built by hand (tests): v1.
   */
  providerApi?: ProviderApi;
  /**
   * Whether any attempt so far may have reached the provider (its outcome was not certainly "not
   * processed"): a refusal of a later re-send is then no proof the money stayed (issue 29). False
   * (or absent, rows built by hand): every attempt so far was certainly not processed.
   */
  maybeReached?: boolean;
  /** When the provider refused a re-send while an earlier attempt may have reached it; null: never. */
  resendRefusedAt?: Date | null;
  /**
   * Where the payout waits at the provider, when it says (issue 29); null: it said no more than
   * pending, or the payout is settled. Written only by the ledger's moves (OutcomeFields.subState).
   * Absent only on rows built by hand (tests): none.
   */
  subState?: ProviderSubState | null;
  /**
   * The provider's fee of the transfer (issue 32): set when the payout settles and the provider
   * said it; null (or absent, rows built by hand): not known. Written only by the ledger's moves.
   */
  fee?: TransferFee | null;
}

export interface NewPayout {
  accountId: string;
  transferId: string;
  kind: PayoutKind;
  requestHash: string;
  request: Record<string, unknown>;
  requestSecrets: Record<string, SealedSecret> | null;
  amount: string;
  requestId: string | null;
  traceparent?: string | null;
  /** The account's generation now (default v1). */
  providerApi?: ProviderApi;
}

export interface BatchRow {
  id: string;
  accountId: string;
  batchTransferId: string;
  batchFormat: BatchFormat;
  requestHash: string;
  entryCount: number;
  totalAmount: string;
  status: BatchStatus;
  version: number;
  attempt: number;
  referenceId: string | null;
  statusCode: string | null;
  reason: string | null;
  requestId: string | null;
  /** The entry totals the current version's event carries; null: the entry count only. */
  totals: BatchTotals | null;
  createdAt: Date;
  /** Moves only with `version`: the time of the current version's event. */
  updatedAt: Date;
  /** Set on rows claimed for a status check. */
  checkCount?: number;
  /** The W3C traceparent of the command's trace (ADR 0015); its events carry it. */
  traceparent?: string | null;
  /** The provider API generation it was sent on; absent only on rows built by hand: v1. */
  providerApi?: ProviderApi;
}

export interface BatchTotals {
  entries: number;
  succeeded: number;
  failed: number;
  pending: number;
}

export interface NewBatch {
  accountId: string;
  batchTransferId: string;
  batchFormat: BatchFormat;
  requestHash: string;
  requestId: string | null;
  traceparent?: string | null;
  /** The account's generation now (default v1). */
  providerApi?: ProviderApi;
  totalAmount: string;
  entries: ReadonlyArray<{ transferId: string; amount: string; entry: Record<string, unknown> }>;
}

/**
 * A batch not admitted: these entry ids (in entry order) are held already by other transfers of
 * the account (a single payout, or an entry of another batch): one namespace, as at the provider.
 */
export interface HeldTransferIds {
  readonly held: readonly string[];
}

export interface BatchItemRow {
  batchId: string;
  transferId: string;
  position: number;
  amount: string;
  entry: Record<string, unknown>;
  status: string;
  version: number;
  referenceId: string | null;
  utr: string | null;
  reason: string | null;
  /**
   * Where the entry waits at the provider, when it said (issue 29); null once settled. A new one
   * is a new version, so `updatedAt` is when the entry began to wait there.
   */
  subState: ProviderSubState | null;
  /** Moves only with `version`: the time of the entry's current event. */
  updatedAt: Date;
  /** The provider's fee of the entry (issue 32), once settled and said; null: not known. */
  fee?: TransferFee | null;
}

/** What an outcome writes onto a payout, besides its status. */
export interface OutcomeFields {
  statusCode?: string | null;
  reason?: string | null;
  referenceId?: string | null;
  svcTransferId?: string | null;
  utr?: string | null;
  lastError?: Record<string, unknown> | null;
  nextCheckAt?: Date | null;
  /**
   * This attempt's outcome is not certainly "not processed" (an answer, a timeout, a lost
   * connection): the provider may hold the transfer. Sticky on the row (`maybeReached`): never
   * cleared by a later write.
   */
  maybeReached?: boolean;
  /**
   * The provider refused a re-send while an earlier attempt may have reached it: stamped once on
   * the row (`resendRefusedAt`), kept through reopens, so no later "not found" re-sends it.
   */
  resendRefused?: boolean;
  /**
   * The provider's sub-state (issue 29): a value or null sets it; undefined keeps the row's. A
   * move to a terminal state clears it whatever is given (a settled payout waits nowhere).
   */
  subState?: ProviderSubState | null;
  /**
   * The provider's fee (issue 32): given, it is written (charge and tax each); not given, the row's
   * is kept. Only the provider's own answer about the transfer gives it.
   */
  fee?: TransferFee;
}

/**
 * The reversal watch, as the ledger applies it: a row of a watched kind entering SUCCESS gets its
 * first reversal check scheduled by the move itself, because every writer of SUCCESS (executor,
 * reconciler, operator) goes through the ledger, and the rule is a property of the ledger, not of
 * one writer.
 */
export interface ReversalWatchSettings {
  /** Delay before the first reversal check (reversalWatchKinds only); null: no reversal watch. */
  readonly reversalWatchFirstMs: number | null;
  /** Kinds whose SUCCESS is watched: the pipeline's kind table says which (REVERSAL_WATCH_KINDS). */
  readonly reversalWatchKinds: readonly PayoutKind[];
  /**
   * The failed watch (ADR 0018), set the same way: a sent row (attempt > 0) of one of
   * `failedWatchKinds` entering FAILED, REJECTED or REVERSED gets its first check `failedWatchFirstMs`
   * later, whoever wrote the state (a refusal, a status check, a webhook, four eyes). Null or absent:
   * no failed watch.
   */
  readonly failedWatchFirstMs?: number | null;
  /** Kinds the provider can be asked about (a status endpoint): FAILED_WATCH_KINDS. */
  readonly failedWatchKinds?: readonly PayoutKind[];
}

/** A provider's result for one entry of a batch, as the ledger applies it (forwards only). */
export interface BatchEntryUpdate {
  readonly transferId: string;
  readonly status: string;
  readonly referenceId: string | null;
  readonly utr: string | null;
  readonly reason: string | null;
  /** Where the entry waits at the provider, when the answer says (absent: it says no more than its status). */
  readonly subState?: ProviderSubState;
  /** The entry's fee when the answer says (issue 32): kept when the entry enters SUCCESS or REVERSED. */
  readonly fee?: TransferFee;
}
