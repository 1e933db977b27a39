import { type ReversalWatchSettings } from '#ledger';
import { type PipelineConfig } from './pipeline.config.js';
import { type BatchCheckWorkerSettings } from './batches/batch-check-worker.js';
import { type BatchSubmissionSettings } from './batches/batch-submission.js';
import { type BatchSubmitWorkerSettings } from './batches/batch-submit-worker.js';
import { type ExecutorSettings } from './executor/payout-executor.js';
import { type ReconcilerSettings } from './reconciler/payout-reconciler.js';
import { type DecisionTimings } from './shared/decide-after-submit.js';
import { type LeaseKeeperSettings } from './shared/lease-keeper.js';
import { type OutcomeRecorderSettings } from './shared/outcome-recorder.js';
import { FAILED_WATCH_KINDS, REVERSAL_WATCH_KINDS } from './shared/payout-kinds.js';
import { longWaitRules } from './long-waits.config.js';

/*
 * The settings of each pipeline part, from the validated config section (as outboxRelaySettings
 * is for the relay). `owner` is this instance's lease owner.
 */

/**
 * The ledger schedules a SUCCESS row's first reversal check, and a negative state's first failed
 * watch check (null: no watch).
 */
export function reversalWatchSettings(c: PipelineConfig): ReversalWatchSettings {
  return {
    reversalWatchFirstMs: c.REVERSAL_WATCH_SCHEDULE[0] ?? null,
    reversalWatchKinds: REVERSAL_WATCH_KINDS,
    failedWatchFirstMs: c.FAILED_WATCH_SCHEDULE[0] ?? null,
    failedWatchKinds: FAILED_WATCH_KINDS,
  };
}

export function leaseKeeperSettings(c: PipelineConfig, owner: string): LeaseKeeperSettings {
  return {
    owner,
    leaseMs: c.EXECUTOR_LEASE_MS,
    intervalMs: Math.max(50, Math.floor(c.EXECUTOR_LEASE_MS / 4)),
  };
}

export function outcomeRecorderSettings(c: PipelineConfig): OutcomeRecorderSettings {
  return { lingerMs: c.OUTCOME_LINGER_MS, maxBatch: c.OUTCOME_MAX_BATCH };
}

export function decisionTimings(c: PipelineConfig): DecisionTimings {
  return {
    firstCheckMs: c.RECONCILE_SCHEDULE[0] ?? 30_000,
    resendMs: c.RESEND_DELAY_MS,
    fatalConfigMs: c.FATAL_CONFIG_RETRY_MS,
  };
}

export function executorSettings(c: PipelineConfig, owner: string): ExecutorSettings {
  return {
    owner,
    concurrency: c.EXECUTOR_CONCURRENCY,
    leaseMs: c.EXECUTOR_LEASE_MS,
    idlePollMs: c.EXECUTOR_IDLE_POLL_MS,
  };
}

/**
 * `notReceivedFailsAccounts`: the accounts whose operator confirmed with the provider that its
 * status endpoint knows internal transfers (PROVIDER_ACCOUNTS `notReceivedFails`,
 * PROVIDER_NOT_RECEIVED_FAILS for the primary); none by default.
 */
export function reconcilerSettings(
  c: PipelineConfig,
  owner: string,
  notReceivedFailsAccounts: ReadonlySet<string> = new Set(),
): ReconcilerSettings {
  return {
    owner,
    leaseMs: c.EXECUTOR_LEASE_MS,
    batchSize: c.RECONCILER_BATCH_SIZE,
    concurrency: c.RECONCILER_CONCURRENCY,
    pollMs: c.RECONCILER_POLL_MS,
    schedule: c.RECONCILE_SCHEDULE,
    maxSendAttempts: c.MAX_SEND_ATTEMPTS,
    reversalWatch: c.REVERSAL_WATCH_SCHEDULE,
    reversalWatchWorkingDays: c.REVERSAL_WATCH_WORKING_DAYS,
    notFoundSettleMs: c.NOT_FOUND_SETTLE_MS,
    failedWatch: c.FAILED_WATCH_SCHEDULE,
    refusedResendSettleMs: c.REFUSED_RESEND_SETTLE_MS,
    notReceivedFailsAccounts,
    waits: longWaitRules(c),
  };
}

export function batchSubmissionSettings(c: PipelineConfig): BatchSubmissionSettings {
  return { schedule: c.RECONCILE_SCHEDULE, resendMs: c.RESEND_DELAY_MS };
}

export function batchSubmitWorkerSettings(c: PipelineConfig, owner: string): BatchSubmitWorkerSettings {
  // A batch call is slow (hundreds of entries): a few at a time.
  return { owner, leaseMs: c.EXECUTOR_LEASE_MS, idlePollMs: c.BATCH_IDLE_POLL_MS, perRound: 2 };
}

export function batchCheckWorkerSettings(c: PipelineConfig, owner: string): BatchCheckWorkerSettings {
  return {
    owner,
    leaseMs: c.EXECUTOR_LEASE_MS,
    schedule: c.RECONCILE_SCHEDULE,
    maxSendAttempts: c.MAX_SEND_ATTEMPTS,
    // Claimed no more than are checked at once, as the reconciler does.
    perRound: Math.min(c.RECONCILER_CONCURRENCY, c.RECONCILER_BATCH_SIZE),
    pollMs: c.RECONCILER_POLL_MS,
    failedWatch: c.FAILED_WATCH_SCHEDULE,
    // The long waits of its entries and the attention watch, as for payouts (issue 29).
    waits: longWaitRules(c),
  };
}
