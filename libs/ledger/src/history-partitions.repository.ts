import type pg from 'pg';
import { inTransaction } from '#database';

type Db = pg.Pool | pg.PoolClient;

/** Whatever instance holds it maintains the partitions; the others skip that round. */
const MAINTENANCE_LOCK = 7426024;

export interface HistoryPartitionSettings {
  /** Months created ahead of the current one (the default partition catches anything beyond). */
  readonly monthsAhead: number;
  /** 0: keep forever; N: a partition goes once its whole range is more than N months old. */
  readonly retentionMonths: number;
  /** `detach`: moved to schema `state_history_archive` for the operator; `drop`: deleted. */
  readonly retire: 'drop' | 'detach';
  /** How long a DDL statement may wait for its lock (a detach or drop blocks history writes while it waits). */
  readonly lockTimeoutMs: number;
}

export interface PartitionChange {
  readonly action: 'created' | 'dropped' | 'detached';
  readonly partition: string;
  /** Rows moved out of the default partition into a created one. */
  readonly movedRows: number;
}

export interface HistoryPartition {
  readonly name: string;
  readonly isDefault: boolean;
  /** null: MINVALUE (the legacy partition) or the default. */
  readonly lower: Date | null;
  readonly upper: Date | null;
}

/** The statements on `state_history`'s partitions (migration 1764500000000, ADR 0016, amendment of 2026-11-25). */
export class HistoryPartitionsRepository {
  /**
   * One maintenance round (`state_history_maintain`) in its own transaction, under a
   * transaction-level advisory lock: undefined when another instance holds it.
   */
  async maintain(pool: pg.Pool, s: HistoryPartitionSettings): Promise<PartitionChange[] | undefined> {
    return inTransaction(pool, async (c) => {
      const { rows: locked } = await c.query<{ got: boolean }>(
        /* sql: historyPartitions.maintain.lock */ `SELECT pg_try_advisory_xact_lock($1) AS got`,
        [MAINTENANCE_LOCK],
      );
      if (!locked[0]?.got) return undefined;
      await c.query(
        /* sql: historyPartitions.maintain.lockTimeout */ `SELECT set_config('lock_timeout', $1, true)`,
        [`${s.lockTimeoutMs}ms`],
      );
      const { rows } = await c.query<{
        action: PartitionChange['action'];
        partition: string;
        moved_rows: string;
      }>(
        /* sql: historyPartitions.maintain */ `SELECT action, partition, moved_rows FROM state_history_maintain($1, $2, $3)`,
        [s.monthsAhead, s.retentionMonths, s.retire],
      );
      return rows.map((r) => ({ action: r.action, partition: r.partition, movedRows: Number(r.moved_rows) }));
    });
  }

  /** The partitions, oldest first, the default last. */
  async list(db: Db): Promise<HistoryPartition[]> {
    const { rows } = await db.query<{
      name: string;
      is_default: boolean;
      lower: Date | null;
      upper: Date | null;
    }>(/* sql: historyPartitions.list */ `SELECT name, is_default, lower, upper FROM state_history_partitions
        ORDER BY is_default, upper NULLS LAST`);
    return rows.map((r) => ({ name: r.name, isDefault: r.is_default, lower: r.lower, upper: r.upper }));
  }
}
