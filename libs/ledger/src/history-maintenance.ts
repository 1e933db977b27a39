import type pg from 'pg';
import { type AppLogger } from '#observability';
import {
  type HistoryPartitionSettings,
  HistoryPartitionsRepository,
  type PartitionChange,
} from './history-partitions.repository.js';

export interface HistoryMaintenanceDeps {
  readonly pool: pg.Pool;
  readonly logger: AppLogger;
  readonly settings: HistoryPartitionSettings & { readonly intervalMs: number };
}

/**
 * Keeps `state_history`'s month partitions ahead and applies the retention (ADR 0016, amendment of 2026-11-25): a round at
 * start, then one per interval. Any number of instances may run it (an advisory lock picks one per
 * round). A round that fails (a lock not granted within the timeout) is logged and tried again at
 * the next; writes never depend on it (the default partition takes what no month covers).
 */
export class HistoryMaintenance {
  private readonly repo = new HistoryPartitionsRepository();
  private readonly log: AppLogger;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(private readonly d: HistoryMaintenanceDeps) {
    this.log = d.logger.child({ component: 'history-maintenance' });
  }

  start(): void {
    if (this.timer) return;
    this.tick();
    this.timer = setInterval(() => this.tick(), this.d.settings.intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }

  /** One round; undefined when another instance is doing it. */
  async runOnce(): Promise<PartitionChange[] | undefined> {
    const changes = await this.repo.maintain(this.d.pool, this.d.settings);
    for (const c of changes ?? []) {
      if (c.movedRows > 0)
        this.log.warn(
          { partition: c.partition, movedRows: c.movedRows },
          'history rows had landed in the default partition (maintenance late): moved into their month',
        );
      this.log.info({ partition: c.partition, action: c.action }, `history partition ${c.action}`);
    }
    return changes;
  }

  private tick(): void {
    this.running ??= this.runOnce()
      .then(() => undefined)
      .catch((e: unknown) =>
        this.log.error({ err: e }, 'history partition maintenance failed; retried next round'),
      )
      .finally(() => (this.running = undefined));
  }
}
