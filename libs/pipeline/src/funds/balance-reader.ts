import type pg from 'pg';
import { Counter, type Registry } from 'prom-client';
import { type BalanceReadingRepository } from '#ledger';
import { type AppLogger, Poller, type PollOutcome, type WorkerMetricsPort } from '#observability';
import { type ProviderQueries } from '#provider-client';
import { type BalanceReading, type BalanceReadings } from './balance-readings.js';
import { BALANCE_LOOK_MAX_MS, type BalanceReaderSettings } from './balance-reader.config.js';

/** Where the reads are counted, by account and outcome (`success`, or the call's outcome class). */
export interface BalanceReadMetrics {
  read(accountId: string, outcome: string): void;
}

export class PromBalanceReadMetrics implements BalanceReadMetrics {
  private readonly reads: Counter<'account' | 'outcome'>;

  constructor(registry: Registry) {
    this.reads = new Counter({
      name: 'payouts_balance_reads_total',
      help: "Reads of the provider's balance by account and outcome: success, or the failed call's class (unknown, retry-safe, auth-refresh, fatal-config, failed); a failed read keeps the last reading",
      labelNames: ['account', 'outcome'],
      registers: [registry],
    });
  }

  read(accountId: string, outcome: string): void {
    this.reads.inc({ account: accountId, outcome });
  }
}

export interface BalanceReaderDeps {
  readonly pool: pg.Pool;
  readonly readings: BalanceReadingRepository;
  /** The provider port's balance call (Get Balance, on the account's shared rate budget). */
  readonly provider: Pick<ProviderQueries, 'balance'>;
  /** The configured accounts: each is read. */
  readonly accountIds: readonly string[];
  /**
   * The fee per transfer (paise) the funds rounds count for an account that holds (FUNDS_HOLD's
   * `fee`): what was in doubt at the ask is recorded as they count it. Default none.
   */
  readonly feeOf?: (accountId: string) => bigint;
  readonly logger: AppLogger;
  readonly metrics?: BalanceReadMetrics;
  /** Counts failed steps (payouts_worker_failures_total{worker="balance_reader"}). */
  readonly workerMetrics?: WorkerMetricsPort;
  /**
   * Told after each successful reading is kept (ADR 0027, release): the claim loops of this
   * process look at the account's held payouts at once. Never throws into the reader.
   */
  readonly onReading?: (accountId: string) => void;
}

/**
 * The provider's balance of each configured account (issue 32), read every interval on the one
 * polling worker (ADR 0025) and kept in Postgres (balance_reading), so every instance, the ops API
 * and the gauges see the same reading; it is also the funds view's `BalanceReadings`. Which
 * instance reads is claimed per account in the table (one read per interval). `readSoon` (a
 * provider notice about the balance: low balance, a credit) makes an account due at once and wakes
 * the reader. A failed read keeps the last reading and its time, and is counted.
 */
export class BalanceReader implements BalanceReadings {
  private readonly poller: Poller;

  constructor(
    private readonly d: BalanceReaderDeps,
    private readonly s: BalanceReaderSettings,
  ) {
    this.poller = new Poller({
      name: 'balance_reader',
      logger: d.logger,
      metrics: d.workerMetrics,
      step: () => this.step(),
      pollMs: s.lookMs ?? Math.min(Math.max(s.intervalMs, 1), BALANCE_LOOK_MAX_MS),
      failureMessage: 'balance reader failed; retrying',
    });
  }

  /** Starts reading; a no-op when BALANCE_READ_INTERVAL_MS is 0 or no account is configured. */
  start(): void {
    if (this.s.intervalMs > 0 && this.d.accountIds.length > 0) this.poller.start();
  }

  async stop(): Promise<void> {
    await this.poller.stop();
  }

  /**
   * The provider said something about the account's balance: it is read at the next look of any
   * instance, at once on this one if its reader runs. Never throws (a webhook's handling goes on).
   */
  async readSoon(accountId: string): Promise<void> {
    if (this.s.intervalMs === 0 || !this.d.accountIds.includes(accountId)) return;
    try {
      await this.d.readings.readSoon(this.d.pool, accountId);
      this.poller.wake();
    } catch (e) {
      this.d.logger.warn(
        { err: e, accountId },
        'balance reader: could not mark the account due; read at its interval',
      );
    }
  }

  async latest(accountId: string): Promise<BalanceReading | null> {
    const r = await this.d.readings.latest(this.d.pool, accountId);
    return r ? { available: r.available, readAt: r.readAt } : null;
  }

  /** One look: the accounts due, claimed, each read once. */
  async step(): Promise<PollOutcome> {
    const due = await this.d.readings.claimDue(this.d.pool, this.d.accountIds, this.s.intervalMs);
    for (const accountId of due) await this.readOne(accountId);
    return 'idle';
  }

  /**
   * Reads one account and keeps the answer; a failure keeps the last reading. The reading's time is
   * when it was asked, on Postgres's clock (the clock of the ledger's `sent_at`), not when the answer
   * came: a payout sent while the call was in the air is then counted as not in the reading, even if
   * the provider's answer included it. Counted twice at worst, and held until the next reading; never
   * counted by neither side (hold for funds, ADR 0027). What the account's rounds had sent and had in
   * doubt at the ask is kept with the reading: the bound its rounds read first.
   */
  async readOne(accountId: string): Promise<void> {
    const asked = await this.d.readings.ask(this.d.pool, accountId, this.d.feeOf?.(accountId) ?? 0n);
    const r = await this.d.provider.balance(accountId);
    if (r.outcome === 'success') {
      await this.d.readings.record(this.d.pool, accountId, r.data.available, r.data.ledger, asked);
      this.d.metrics?.read(accountId, 'success');
      try {
        this.d.onReading?.(accountId);
      } catch (e) {
        this.d.logger.warn({ err: e, accountId }, 'balance reader: a listener of new readings failed');
      }
      return;
    }
    const outcome = r.outcome === 'failed' ? 'failed' : r.outcome;
    await this.d.readings.failed(this.d.pool, accountId, outcome);
    this.d.metrics?.read(accountId, outcome);
    this.d.logger.warn(
      {
        accountId,
        outcome,
        reason: 'reason' in r ? r.reason : undefined,
        requestId: r.diagnostics.requestId,
      },
      'balance read failed; the last reading is kept',
    );
  }
}
