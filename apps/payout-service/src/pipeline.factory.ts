import { createSecretKey } from 'node:crypto';
import { type Kafka } from 'kafkajs';
import type pg from 'pg';
import { type Registry } from 'prom-client';
import {
  BatchLedger,
  type LedgerOutbox,
  ContradictionRepository,
  HistoryMaintenance,
  HISTORY_MAINTENANCE_LOCK_TIMEOUT_MS,
  HistoryRepository,
  BatchRepository,
  DeadLetterRepository,
  PayoutLedger,
  PayoutRepository,
  SecretsCipher,
  WithdrawalQuotaRepository,
} from '#ledger';
import { type OutboxSlotView } from '#health';
import { ReconnectingProducer } from '#messaging';
import { type AppLogger, type Tracing, WorkerMetrics } from '#observability';
import {
  BeneficiaryProposalRepository,
  createOperationsUseCases,
  OperatorActionRepository,
  ProposalRepository,
  SearchRepository,
} from '#operations';
import {
  OutboxListener,
  OutboxRelay,
  OutboxRepository,
  outboxRelaySettings,
  PromOutboxMetrics,
  WalOutboxRepository,
  WalOutboxWriter,
  WalRelay,
  walRelaySettings,
} from '#outbox';
import {
  batchCheckWorkerSettings,
  BatchCheckWorker,
  BatchSubmission,
  batchSubmissionSettings,
  BatchSubmitWorker,
  batchSubmitWorkerSettings,
  decisionTimings,
  executorSettings,
  fundsHoldRule,
  fundsHoldSettings,
  IntakeService,
  KafkaDeadLetterPublisher,
  LeaseKeeper,
  leaseKeeperSettings,
  OutcomeRecorder,
  outcomeRecorderSettings,
  PayoutExecutor,
  PayoutReconciler,
  PayoutSubmission,
  PipelineMetrics,
  PromPaidMetrics,
  ReconcilerMetrics,
  reconcilerSettings,
  reversalWatchSettings,
  ManageBeneficiaries,
} from '#pipeline';
import { createProvider } from '#provider-client';
import { type ServiceConfig } from './service.config.js';
import { createWebhooks } from './webhooks.factory.js';
import { createFunds } from './funds.factory.js';
import { createApprovals } from './approvals.factory.js';
import { createQueries } from './queries.factory.js';
import { createRateSlots } from './rate-budget.factory.js';

/** What the pipeline is built from: the infrastructure module's pieces. */
export interface PipelineInputs {
  readonly config: ServiceConfig;
  readonly pool: pg.Pool;
  readonly kafka: Kafka;
  readonly topicPrefix: string;
  readonly registry: Registry;
  readonly logger: AppLogger;
  /** Spans of the ledger, the provider calls, the executor, reconciler and relay (ADR 0015). */
  readonly tracing: Tracing;
  /** The lease_owner of this instance's claims. */
  readonly owner: string;
}

/**
 * The whole pipeline, built with plain constructor calls the compiler checks: one instance of
 * each part, shared by every part that needs it (one PayoutRepository, one ledger step, one
 * provider client). The Nest module only hands these out.
 */
export function createPipeline(i: PipelineInputs) {
  const { config, pool, kafka, topicPrefix, registry, owner, tracing } = i;
  const c = config.pipeline;
  const log = (component: string) => i.logger.child({ component });
  const executorLog = log('executor');

  const payouts = new PayoutRepository();
  const batches = new BatchRepository();
  const outbox = new OutboxRepository();
  // Where the ledger's transactions write their events (ADR 0023): rows, or WAL messages.
  const wal = config.outbox.OUTBOX_TRANSPORT === 'wal';
  const events: LedgerOutbox = wal ? new WalOutboxWriter() : outbox;
  const history = new HistoryRepository();
  const metrics = new PipelineMetrics(registry);
  const reconcilerMetrics = new ReconcilerMetrics(registry);
  // Failed steps of the polling workers, by worker (the one Poller, ADR 0025).
  const workerMetrics = new WorkerMetrics(registry);
  const stale = (source: string) => metrics.staleResults.inc({ source });
  const attention = (reason: string) => reconcilerMetrics.requiresAttention.inc({ reason });
  const contradictions = new ContradictionRepository();
  // The amount paid per account (issue 32): the outflow FundsTimeToEmpty divides the balance by.
  const { paid } = new PromPaidMetrics(registry);
  const payoutLedger = new PayoutLedger({
    pool,
    reversalWatch: reversalWatchSettings(c),
    outbox: events,
    history,
    logger: i.logger,
    stale,
    attention,
    contradictions,
    contradicted: (labels) => reconcilerMetrics.contradictions.inc(labels),
    paid,
    publishSubmitting: config.ledger.EVENTS_SUBMITTING === 'publish',
    publishAccepted: config.ledger.EVENTS_ACCEPTED === 'publish',
    tracing,
  });
  const batchLedger = new BatchLedger({
    pool,
    outbox: events,
    history,
    logger: i.logger,
    stale,
    tracing,
    failedWatchFirstMs: reversalWatchSettings(c).failedWatchFirstMs ?? null,
    contradictions,
    contradicted: (labels) => reconcilerMetrics.contradictions.inc(labels),
    paid,
  });
  const cipher = SecretsCipher.fromConfig(
    config.ledger.LEDGER_ENCRYPTION_KEY_ID,
    config.ledger.LEDGER_ENCRYPTION_KEY,
    config.ledger.LEDGER_PREVIOUS_KEYS,
  );
  // The provider, behind its one port: one client underneath (shared auth, budgets, metrics).
  const provider = createProvider(config.providerClient, config.providerHosts, {
    registry,
    logger: log('provider-client'),
    rateBudgetLogger: i.logger.child({ component: 'rate-budget' }),
    slots: createRateSlots(i),
    tracing,
  });
  // Payouts and batches per API generation.
  const connectors = provider.payouts;

  const { approvals, beneficiaryChanges, approvalGate, approvalExpiry } = createApprovals({
    config: c,
    pool,
    payouts,
    batches,
    payoutLedger,
    batchLedger,
    logger: log('approvals'),
    workerMetrics,
  });

  const dlq = new KafkaDeadLetterPublisher(new ReconnectingProducer(kafka), topicPrefix);
  const deadLetterKey = createSecretKey(Buffer.from(c.DEAD_LETTER_DIGEST_KEY, 'base64'));
  const intake = new IntakeService({
    payouts,
    ledger: payoutLedger,
    batchLedger,
    batches,
    quota: new WithdrawalQuotaRepository(),
    deadLetters: new DeadLetterRepository(),
    outbox: events,
    dlq,
    cipher,
    metrics,
    logger: log('intake'),
    defaultAccountId: config.providerClient.PROVIDER_ACCOUNT_ID,
    knownAccounts: new Set(provider.accounts.ids),
    deadLetterKey,
    providerApiOf: (accountId) => provider.accounts.apiOf(accountId),
    maxCommandBytes: c.MAX_COMMAND_BYTES,
    tracing,
    ...(approvalGate ? { approvals: approvalGate } : {}),
  });

  const leases = new LeaseKeeper(pool, payouts, executorLog, leaseKeeperSettings(c, owner), () =>
    metrics.leasesLost.inc(),
  );
  const recorder = new OutcomeRecorder(payoutLedger, executorLog, outcomeRecorderSettings(c));
  const submission = new PayoutSubmission(
    { recorder, connectors, cipher, leases, logger: executorLog, tracing },
    decisionTimings(c),
  );
  // Hold for funds (ADR 0027): the accounts in FUNDS_HOLD, checked at start (loadServiceConfig).
  const fundsHold = fundsHoldRule(fundsHoldSettings(c, provider.accounts.ids));
  const executor = new PayoutExecutor(
    { ledger: payoutLedger, logger: executorLog, workerMetrics, fundsHold },
    executorSettings(c, owner),
    submission,
  );
  const reconciler = new PayoutReconciler(
    {
      pool,
      payouts,
      ledger: payoutLedger,
      connectors,
      submission,
      metrics: reconcilerMetrics,
      logger: log('reconciler'),
      tracing,
      workerMetrics,
    },
    reconcilerSettings(c, owner, provider.accounts.notReceivedFails),
  );

  const batchLog = log('batches');
  const batchSubmission = new BatchSubmission(
    { pool, batches, ledger: batchLedger, connectors, logger: batchLog, tracing },
    batchSubmissionSettings(c),
  );
  const batchSubmits = new BatchSubmitWorker(
    { ledger: batchLedger, submission: batchSubmission, logger: executorLog, workerMetrics, fundsHold },
    batchSubmitWorkerSettings(c, owner),
  );
  const batchChecks = new BatchCheckWorker(
    {
      pool,
      batches,
      ledger: batchLedger,
      connectors,
      submission: batchSubmission,
      metrics: reconcilerMetrics,
      logger: batchLog,
      tracing,
      workerMetrics,
    },
    batchCheckWorkerSettings(c, owner),
  );
  // The reconciler role's (Workers): partitions ahead and the retention of state_history (ADR 0016, amendment of 2026-11-25).
  const l = i.config.ledger;
  const historyMaintenance = new HistoryMaintenance({
    pool,
    logger: log('ledger'),
    settings: {
      monthsAhead: l.HISTORY_PARTITIONS_AHEAD,
      retentionMonths: l.HISTORY_RETENTION_MONTHS,
      retire: l.HISTORY_RETENTION_ACTION,
      lockTimeoutMs: HISTORY_MAINTENANCE_LOCK_TIMEOUT_MS,
      intervalMs: l.HISTORY_MAINTENANCE_INTERVAL_MS,
    },
  });

  const walSlots = new WalOutboxRepository();
  const outboxMetrics = new PromOutboxMetrics(registry, () => outbox.stats(pool), {
    slot: config.outbox.OUTBOX_WAL_SLOT,
    expected: wal,
    read: (name) => walSlots.slot(pool, name),
    streaming: (): number => (walRelay?.state === 'streaming' ? 1 : 0),
  });
  const relay = new OutboxRelay({
    pool,
    databaseUrl: config.core.DATABASE_URL,
    kafka,
    topicPrefix,
    logger: i.logger,
    settings: outboxRelaySettings(config.outbox),
    repository: outbox,
    metrics: outboxMetrics,
    tracing,
    workerMetrics,
  });
  // `wal`: the slot's stream is published by this relay; the table relay above serves what it
  // parks (failed events, and later events of their keys) and rows left by the table transport.
  const walRelay: WalRelay | undefined = wal
    ? new WalRelay({
        pool,
        databaseUrl: config.core.DATABASE_URL,
        kafka,
        topicPrefix,
        logger: i.logger,
        settings: { ...walRelaySettings(config.outbox), ...outboxRelaySettings(config.outbox) },
        repository: outbox,
        metrics: outboxMetrics,
        onParked: () => relay.wake(),
        workerMetrics,
      })
    : undefined;
  // An executor without the intake in its process (roles split) hears of new payouts from
  // Postgres (migration 1764000000001); in one process the intake wakes it directly.
  const newPayouts = new OutboxListener({
    databaseUrl: config.core.DATABASE_URL,
    logger: executorLog,
    channel: 'payout_received',
    onWake: () => executor.wake(),
  });
  const beneficiaries = provider.beneficiaries;
  const queries = createQueries({
    kafka,
    provider: provider.queries,
    registry,
    topicPrefix,
    logger: log('queries'),
    defaultAccountId: config.providerClient.PROVIDER_ACCOUNT_ID,
    beneficiaries,
    beneficiaryChanges,
    replyTopics: c.QUERY_REPLY_TOPICS,
    pool,
    cipher,
    keepAnswersMs: c.QUERY_ANSWERS_KEEP_MS,
    dlq,
    deadLetterKey,
    metrics,
  });
  const { balanceReader, funds } = createFunds({
    config,
    pool,
    registry,
    logger: log('funds'),
    provider,
    workerMetrics,
    // A new reading releases what it funds now in this process (other processes: their idle poll).
    onReading: (accountId) => {
      executor.fundsChanged(accountId);
      batchSubmits.fundsChanged(accountId);
    },
  });
  const webhooks = createWebhooks({
    config,
    pool,
    registry,
    logger: i.logger,
    payouts,
    batches,
    outbox: events,
    ledger: payoutLedger,
    provider,
    workerMetrics,
    onBalanceNotice: (accountId) => void balanceReader.readSoon(accountId),
  });
  const operations = createOperationsUseCases({
    pool,
    payouts,
    batches,
    ledger: payoutLedger,
    history,
    search: new SearchRepository(),
    actions: new OperatorActionRepository(),
    proposals: new ProposalRepository(),
    beneProposals: new BeneficiaryProposalRepository(),
    cipher,
    // The relay's own replay: it wakes the relay.
    replayDead: (id) => relay.replayDead(id),
    logger: log('operations'),
    contradictions,
    deadLetters: new DeadLetterRepository(),
    deadOutboxRows: (page) => outbox.listDead(pool, page),
    manage: new ManageBeneficiaries(beneficiaries, beneficiaryChanges),
    accountIds: provider.accounts.ids,
    approvals,
    batchLedger,
    funds,
  });

  return {
    funds,
    balanceReader,
    payouts,
    payoutLedger,
    provider,
    intake,
    dlq,
    leases,
    submission,
    executor,
    newPayouts,
    reconciler,
    batchSubmits,
    batchChecks,
    historyMaintenance,
    approvalExpiry,
    relay,
    walRelay,
    slotHealth: {
      problem: async (): Promise<string | undefined> => {
        if (!wal) return undefined;
        const slot = config.outbox.OUTBOX_WAL_SLOT;
        const status = await walSlots.slot(pool, slot);
        if (!status) return `the outbox replication slot ${slot} is missing (OUTBOX_TRANSPORT=wal)`;
        if (status.walStatus === 'lost')
          return `the outbox replication slot ${slot} was invalidated (max_slot_wal_keep_size): events not yet published are gone from the WAL`;
        return undefined;
      },
    } satisfies OutboxSlotView,
    queries,
    operations,
    ...webhooks,
  };
}

export type Pipeline = ReturnType<typeof createPipeline>;
