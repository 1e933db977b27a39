import type pg from 'pg';
import { payoutStateEvent, type PayoutRepository, type PayoutRow, type TransitionMove } from '#ledger';
import { type AppLogger } from '#observability';
import { type OutboxWriter } from '../ports.js';
import { inTransaction } from '../transaction.js';

export interface OutcomeRecorderSettings {
  /** How long the first outcome of a group waits for others to share its transaction. */
  readonly lingerMs: number;
  readonly maxBatch: number;
}

interface Pending {
  move: TransitionMove;
  resolve: (row: PayoutRow | undefined) => void;
  reject: (e: unknown) => void;
}

const RETRYABLE = new Set(['40P01', '40001']); // deadlock, serialization failure

/**
 * Records provider outcomes in groups: every outcome that finishes within `lingerMs` of the first
 * shares one transaction (one multi-row UPDATE, one outbox insert, one commit). At 1,000 payouts/s
 * that is tens of commits a second instead of a thousand. Each caller still learns its own row's
 * fate: the new row, or undefined when the row had moved on.
 */
export class OutcomeRecorder {
  private queue: Pending[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly pool: pg.Pool,
    private readonly payouts: PayoutRepository,
    private readonly outbox: OutboxWriter,
    private readonly logger: AppLogger,
    private readonly s: OutcomeRecorderSettings,
  ) {}

  record(move: TransitionMove): Promise<PayoutRow | undefined> {
    return new Promise((resolve, reject) => {
      this.queue.push({ move, resolve, reject });
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

  private async write(batch: Pending[], attempt: number): Promise<void> {
    try {
      const moved = await inTransaction(this.pool, async (c) => {
        const rows = await this.payouts.transitionMany(
          c,
          batch.map((p) => p.move),
        );
        await this.outbox.enqueue(
          c,
          rows.map((r) => payoutStateEvent(r)),
        );
        return rows;
      });
      const byId = new Map(moved.map((r) => [r.id, r]));
      for (const p of batch) p.resolve(byId.get(p.move.id));
    } catch (e) {
      const code = (e as { code?: string }).code;
      if (attempt < 3 && code !== undefined && RETRYABLE.has(code)) {
        this.logger.warn({ code, attempt, size: batch.length }, 'outcome group conflicted; retrying');
        return this.write(batch, attempt + 1);
      }
      for (const p of batch) p.reject(e);
    }
  }
}
