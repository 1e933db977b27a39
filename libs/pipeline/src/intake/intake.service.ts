import { type KeyObject } from 'node:crypto';
import { type ProviderApi, type RejectReason } from '#contracts';
import {
  type BatchLedger,
  type BatchRepository,
  type DeadLetterRecord,
  type DeadLetterRepository,
  type LedgerTransaction,
  type NewPayout,
  type OutboxMessage,
  type PayoutLedger,
  type PayoutRepository,
  type PayoutRow,
  type SecretsCipher,
  splitSecrets,
  sumAmounts,
  TransferIdentityRepository,
  type WithdrawalQuotaRepository,
} from '#ledger';
import { type AppLogger, NOOP_TRACING, type Tracing } from '#observability';
import {
  type DeadLetterMessage,
  type DeadLetterPublisher,
  type InboundMessage,
  type OutboxWriter,
} from '../shared/ports.js';
import { type CommandResult, type PipelineMetrics } from '../shared/pipeline.metrics.js';
import { refusalOf } from './database-refusal.js';
import { answerRepeats, identityKey, kindOf } from './repeats.js';
import { type Dead, intakeDeadLetter, intakeDeadLetterRecord, screen, type Valid } from './screen.js';
import { PAYOUT_KINDS } from '../shared/payout-kinds.js';
import { type ApprovalHolds, type HeldBatch } from '../shared/approval-ports.js';

export interface IntakeDeps {
  payouts: PayoutRepository;
  /**
   * New payouts, and a command refused at intake (the daily withdrawal limit), which is a state
   * change like any other; its transaction is intake's (dead letters and re-emits commit with them).
   */
  ledger: PayoutLedger;
  /** A new batch: its rows, first history row and accepted event. */
  batchLedger: Pick<BatchLedger, 'admit'>;
  batches: BatchRepository;
  /** Who holds a transfer id (one namespace across payouts and batch entries); default: the table's. */
  identities?: TransferIdentityRepository;
  quota: WithdrawalQuotaRepository;
  deadLetters: DeadLetterRepository;
  outbox: OutboxWriter;
  dlq: DeadLetterPublisher;
  cipher: SecretsCipher;
  metrics: PipelineMetrics;
  logger: AppLogger;
  defaultAccountId: string;
  /**
   * The accounts this service has (PROVIDER_ACCOUNT_ID and PROVIDER_ACCOUNTS): a command naming
   * another is dead-lettered (unknown_account), not admitted to wait for a person.
   */
  knownAccounts: ReadonlySet<string>;
  /** DEAD_LETTER_DIGEST_KEY: a dead letter's digest of the original bytes is keyed with it (ADR 0007). */
  deadLetterKey: KeyObject;
  /**
   * The API generation an account sends on now (PROVIDER_API_GENERATION, PROVIDER_ACCOUNTS[].api):
   * written on each new payout and batch, which keep it for every send and check; a command a rule
   * of that generation refuses is dead-lettered (api_generation_rule). Default: v1.
   */
  providerApiOf?: (accountId: string) => ProviderApi;
  maxCommandBytes?: number;
  /** A span per intake transaction, in the commands' traces (ADR 0015). */
  tracing?: Tracing;
  /** The approval policy (issue 30), in this transaction; absent when no account has one. */
  approvals?: ApprovalHolds;
}

/** What became of one command; the account of what was accepted (the claim loops' wake). */
interface Outcome {
  type: string;
  result: CommandResult;
  accountId?: string;
}

export interface IntakeResult {
  accepted: number;
  /** Of those accepted, how many were batches (the batch worker's work, not the executor's). */
  acceptedBatches: number;
  /** The accounts of the accepted payouts (not batches), each once. */
  payoutAccounts: string[];
  /** The accounts of the accepted batches, each once. */
  batchAccounts: string[];
  duplicates: number;
  conflicts: number;
  rejected: number;
  deadLettered: number;
}

/**
 * Intake of one Kafka batch: invalid messages go to the DLQ, valid ones into the ledger, and
 * their events into the outbox, in ONE transaction. The transport commits the offsets after this
 * resolves; if it throws, the batch is delivered again and the ledger's idempotency absorbs it.
 */
export class IntakeService {
  private readonly identities: TransferIdentityRepository;

  constructor(private readonly d: IntakeDeps) {
    this.identities = d.identities ?? new TransferIdentityRepository();
  }

  async ingest(topic: string, partition: number, messages: readonly InboundMessage[]): Promise<IntakeResult> {
    const { valid, dead } = screen(messages, {
      defaultAccountId: this.d.defaultAccountId,
      knownAccounts: this.d.knownAccounts,
      cipher: this.d.cipher,
      apiOf: (accountId) => this.apiOf(accountId),
      maxCommandBytes: this.d.maxCommandBytes,
    });

    // The DLQ write happens before the ledger transaction: if that transaction then fails, the
    // batch is redelivered and the DLQ sees the message twice (deduped by its position header);
    // the other order could lose a dead letter.
    if (dead.length) await this.d.dlq.publish(dead.map((x) => this.deadLetter(topic, partition, x)));

    let outcomes: Outcome[] = [];
    try {
      await this.commit(topic, partition, valid, dead, outcomes);
    } catch (e) {
      // The database refused something in the batch: find it, one transaction per message, so
      // one bad row cannot hold back the partition. An outage is not a refusal: redeliver.
      const refusal = refusalOf(e);
      if (!refusal) throw e;
      this.d.logger.warn(
        { topic, partition, code: refusal.code, messages: messages.length },
        'the database refused a batch; taking its commands one by one',
      );
      outcomes = [];
      await this.oneByOne(topic, partition, valid, dead, outcomes);
    }
    this.count(dead, outcomes);
    const n = (r: CommandResult) => outcomes.filter((o) => o.result === r).length;
    const accepted = outcomes.filter((o) => o.result === 'accepted');
    const isBatch = (o: Outcome) => o.type === 'payout.batch_transfer';
    const accountsOf = (os: readonly Outcome[]) => [
      ...new Set(os.flatMap((o) => (o.accountId === undefined ? [] : [o.accountId]))),
    ];
    return {
      accepted: accepted.length,
      acceptedBatches: accepted.filter(isBatch).length,
      payoutAccounts: accountsOf(accepted.filter((o) => !isBatch(o))),
      batchAccounts: accountsOf(accepted.filter(isBatch)),
      duplicates: n('duplicate'),
      conflicts: n('conflict'),
      rejected: n('rejected'),
      deadLettered: dead.length,
    };
  }

  /**
   * Records valid commands, their events and the dead letters' mirror rows in ONE ledger
   * transaction. The ledger logs each state change once it has committed (a rolled-back batch
   * changed nothing): ids, kind and state, no request content.
   */
  private async commit(
    topic: string,
    partition: number,
    valid: readonly Valid[],
    dead: readonly Dead[],
    outcomes: Outcome[],
  ): Promise<void> {
    const work = async (tx: LedgerTransaction) => {
      const events = await this.record(tx, valid, outcomes);
      await this.d.deadLetters.record(
        tx.client,
        dead.map((x) => this.deadLetterRecord(topic, partition, x)),
      );
      const unique = [...new Map(events.map((e) => [e.eventId, e])).values()];
      await this.d.outbox.enqueue(tx.client, unique);
    };
    const tracing = this.d.tracing ?? NOOP_TRACING;
    if (!tracing.enabled || valid.length === 0) return this.d.ledger.transaction(work);
    await this.d.ledger.transaction(work, (run) =>
      tracing.inSpan(
        'ledger intake',
        {
          parents: valid.map((v) => v.message.traceparent),
          attributes: { 'payouts.source': 'intake', 'payouts.count': valid.length },
        },
        run,
      ),
    );
  }

  /**
   * The fallback after a refused batch: each command in its own transaction, in offset order; one
   * the database refuses is dead-lettered (reason database_refused) and the rest go on. A repeat
   * of an identity finds the row its first message committed, as in one transaction.
   */
  private async oneByOne(
    topic: string,
    partition: number,
    valid: readonly Valid[],
    dead: Dead[],
    outcomes: Outcome[],
  ): Promise<void> {
    await this.commit(topic, partition, [], dead, outcomes);
    for (const v of valid) {
      const own: Outcome[] = [];
      try {
        await this.commit(topic, partition, [v], [], own);
      } catch (e) {
        const refusal = refusalOf(e);
        if (!refusal) throw e;
        const x: Dead = {
          m: v.message,
          reason: 'database_refused',
          detail: `${refusal.code}: ${refusal.message}`,
          type: v.command.type,
        };
        // As for the batch: the DLQ first, then its mirror row.
        await this.d.dlq.publish([this.deadLetter(topic, partition, x)]);
        await this.commit(topic, partition, [], [x], []);
        dead.push(x);
        this.d.logger.warn(
          { topic, partition, offset: v.message.offset, type: v.command.type, code: refusal.code },
          'the database refused a command; dead-lettered',
        );
        continue;
      }
      outcomes.push(...own);
    }
  }

  private async record(
    tx: LedgerTransaction,
    valid: readonly Valid[],
    outcomes: Outcome[],
  ): Promise<OutboxMessage[]> {
    const client = tx.client;
    const events: OutboxMessage[] = [];
    const keyOf = identityKey;
    // Within one Kafka batch the first message of an identity is the one that may insert.
    const firstOf = new Map<string, Valid>();
    for (const v of valid) if (!firstOf.has(keyOf(v))) firstOf.set(keyOf(v), v);
    const candidates = [...firstOf.values()];
    const inserting = new Set<Valid>();
    const [admitted, admittedBatches]: [PayoutRow[], HeldBatch[]] = [[], []];

    // The rows, their accepted events and first history rows go in first: a refusal below is
    // the next version of its payout.
    const inserted = await this.d.ledger.admit(
      tx,
      candidates.filter((v) => !v.isBatch).map((v) => this.newPayout(v)),
    );
    for (const row of inserted) {
      const v = firstOf.get(`p|${row.accountId}|${row.transferId}`);
      if (v) inserting.add(v);
      let result: CommandResult = 'accepted';
      const quota = PAYOUT_KINDS[row.kind].quota;
      if (quota === 'daily_withdrawal' && !(await this.d.quota.tryConsume(client, row.accountId))) {
        await this.d.ledger.apply(
          tx,
          [
            {
              row,
              to: 'REJECTED',
              fields: { reason: 'daily_withdrawal_limit_exceeded', statusCode: 'LIMIT_3_PER_DAY' },
            },
          ],
          'intake',
        );
        result = 'rejected';
      } else admitted.push(row);
      outcomes.push({ type: `payout.${row.kind}`, result, accountId: row.accountId });
    }
    // A batch whose entry ids are held already (by a single payout, or another batch's entries):
    // refused whole, nothing written; the payouts above went first.
    const heldByBatch = new Map<string, string>();
    for (const v of candidates) {
      if (v.command.type !== 'payout.batch_transfer') continue;
      const d = v.command.data;
      const row = await this.d.batchLedger.admit(tx, {
        accountId: v.accountId,
        batchTransferId: d.batchTransferId,
        batchFormat: d.batchFormat,
        requestHash: v.hash,
        requestId: v.command.requestId ?? null,
        traceparent: v.message.traceparent ?? null,
        providerApi: this.apiOf(v.accountId),
        totalAmount: sumAmounts(d.entries.map((e) => e.amount)),
        entries: d.entries.map((e) => ({ transferId: e.transferId, amount: e.amount, entry: { ...e } })),
      });
      if (!row) continue;
      if ('held' in row) {
        heldByBatch.set(keyOf(v), row.held[0]!);
        continue;
      }
      inserting.add(v);
      admittedBatches.push({ row, entries: d.entries });
      outcomes.push({ type: v.command.type, result: 'accepted', accountId: v.accountId });
    }
    await this.d.approvals?.hold(tx, admitted, admittedBatches);

    // Every other message repeats an identity now in the ledger (repeats.ts).
    const repeats = valid.filter((v) => !inserting.has(v));
    if (repeats.length === 0) return events;
    const answers = await answerRepeats(
      { ...this.d, identities: this.identities },
      client,
      repeats,
      heldByBatch,
      outcomes,
    );
    events.push(...answers);
    return events;
  }

  private newPayout(v: Valid): NewPayout {
    const { plain, secrets } = splitSecrets(v.command);
    const sealed = secrets
      ? Object.fromEntries(Object.entries(secrets).map(([k, s]) => [k, this.d.cipher.seal(s)]))
      : null;
    return {
      accountId: v.accountId,
      transferId: v.identity,
      kind: kindOf(v.command),
      requestHash: v.hash,
      request: plain,
      requestSecrets: sealed,
      amount: (plain['amount'] as string | undefined) ?? '0',
      requestId: v.command.requestId ?? null,
      traceparent: v.message.traceparent ?? null,
      providerApi: this.apiOf(v.accountId),
    };
  }

  private apiOf(accountId: string): ProviderApi {
    return this.d.providerApiOf?.(accountId) ?? 'v1';
  }

  private deadLetter(topic: string, partition: number, x: Dead): DeadLetterMessage {
    return intakeDeadLetter(topic, partition, x, this.d);
  }

  private deadLetterRecord(topic: string, partition: number, x: Dead): DeadLetterRecord {
    return intakeDeadLetterRecord(topic, partition, x);
  }

  private count(
    dead: ReadonlyArray<{ reason: RejectReason; type?: string }>,
    outcomes: readonly Outcome[],
  ): void {
    const m = this.d.metrics;
    for (const x of dead) {
      m.deadLettered.inc({ reason: x.reason });
      m.commands.inc({ type: x.type ?? 'unknown', result: 'dead_lettered' });
    }
    for (const o of outcomes) m.commands.inc({ type: o.type, result: o.result });
    if (dead.length)
      this.d.logger.warn(
        { count: dead.length, reasons: [...new Set(dead.map((x) => x.reason))] },
        'commands dead-lettered',
      );
  }
}
