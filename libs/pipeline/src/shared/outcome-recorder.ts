import { setTimeout as sleep } from 'node:timers/promises';
import { type PayoutChange, type PayoutLedger, type PayoutRow } from '#ledger';
import { type AppLogger } from '#observability';

export interface OutcomeRecorderSettings {
  /** How long the first outcome of a group waits for others to share its transaction. */
  readonly lingerMs: number;
  readonly maxBatch: number;
  /** Pauses before writing a group again after a transient error; their count bounds the tries. */
  readonly retryDelaysMs?: readonly number[];
}

const DEFAULT_RETRY_DELAYS_MS = [50, 100, 200, 400, 800, 1_600, 3_200, 5_000, 5_000, 5_000];

interface Pending {
  change: PayoutChange;
  resolve: (row: PayoutRow | undefined) => void;
  reject: (e: unknown) => void;
}

/**
 * Errors that say nothing about the rows: a lost or refused connection, a server shutting down,
 * a conflict with another transaction. The same group is written again after a pause.
 * SQLSTATE classes 08 (connection), 53 (resources), 57 (operator intervention, e.g. a restart),
 * 40 (deadlock, serialization); node's socket errors carry no SQLSTATE.
 */
export function isTransient(e: unknown): boolean {
  const code = (e as { code?: unknown }).code;
  if (typeof code === 'string' && /^(08|53|57|40)/.test(code)) return true;
  if (typeof code === 'string' && /^E[A-Z]+$/.test(code)) return true; // ECONNRESET, ECONNREFUSED...
  const message = e instanceof Error ? e.message : '';
  return /connection|terminat|timeout|closed|ECONN/i.test(message) && code === undefined;
}

/**
 * Records provider outcomes in groups: every outcome that finishes within `lingerMs` of the first
 * shares one transaction (one multi-row UPDATE, one outbox insert, one commit). At 1,000 payouts/s
 * that is tens of commits a second instead of a thousand. Each caller still learns its own row's
 * fate: the new row, or undefined when the row had moved on. The ledger step logs and counts
 * each change (PayoutLedger.changeMany); this class adds the grouping and its failure handling.
 */
export class OutcomeRecorder {
  private queue: Pending[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly ledger: PayoutLedger,
    private readonly logger: AppLogger,
    private readonly s: OutcomeRecorderSettings,
  ) {}

  record(change: PayoutChange): Promise<PayoutRow | undefined> {
    return new Promise((resolve, reject) => {
      this.queue.push({ change, resolve, reject });
      if (this.queue.length >= this.s.maxBatch) this.flushNow();
      else this.timer ??= setTimeout(() => this.flushNow(), this.s.lingerMs);
    });
  }

  private flushNow(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.queue;
    this.queue = [];
    if (batch.length > 0) void this.write(batch, 1);
  }

  /**
   * Writes one group. A transient error (connection, restart, deadlock) writes it again after a
   * pause, a bounded number of times; any other error is a bad value in some row: the group is
   * split in halves until the bad row stands alone, so it fails without taking the others with
   * it. Moves are fenced by version, so writing a group whose commit was lost again is harmless.
   */
  private async write(batch: Pending[], attempt: number): Promise<void> {
    try {
      const moved = await this.ledger.changeMany(
        batch.map((p) => p.change),
        'executor',
      );
      batch.forEach((p, i) => p.resolve(moved[i]));
    } catch (e) {
      const delays = this.s.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
      if (isTransient(e)) {
        const delay = delays[attempt - 1];
        if (delay !== undefined) {
          this.logger.warn(
            { err: e, attempt, size: batch.length, delayMs: delay },
            'recording outcomes failed on a transient error; retrying',
          );
          await sleep(delay);
          return this.write(batch, attempt + 1);
        }
      } else if (batch.length > 1) {
        const half = Math.ceil(batch.length / 2);
        this.logger.warn(
          { err: e, size: batch.length },
          'an outcome group was refused; splitting it to isolate the bad row',
        );
        await Promise.all([this.write(batch.slice(0, half), 1), this.write(batch.slice(half), 1)]);
        return;
      }
      this.logger.error(
        { err: e, size: batch.length },
        'recording outcomes failed; the rows stay as they were',
      );
      for (const p of batch) p.reject(e);
    }
  }
}
