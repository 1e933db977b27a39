import type pg from 'pg';

type Db = pg.Pool | pg.PoolClient;

/**
 * One line of the ledger snapshot: rows of one table in one status, and how old the oldest is.
 * `contradiction`/`open`: contradictions no person has acknowledged yet (ADR 0018).
 */
export interface LedgerStatusCount {
  readonly kind: 'payout' | 'batch' | 'contradiction';
  readonly status: string;
  readonly count: number;
  /** Seconds since the oldest row in this status was created. */
  readonly oldestAgeSeconds: number;
}

/**
 * Figures for the ledger gauges. One query over both tables: a count per status and the age of
 * the oldest row in it; and the open contradictions. It scans the tables (there is no index on status), so callers cache it.
 */
export class LedgerStatsRepository {
  async snapshot(db: Db): Promise<LedgerStatusCount[]> {
    const { rows } = await db.query<{
      kind: 'payout' | 'batch' | 'contradiction';
      status: string;
      count: string;
      age: number;
    }>(/* sql: ledgerStats.snapshot */ `SELECT 'payout' AS kind, status, count(*) AS count,
              EXTRACT(EPOCH FROM now() - min(created_at))::float8 AS age
         FROM payout GROUP BY status
       UNION ALL
       SELECT 'batch' AS kind, status, count(*) AS count,
              EXTRACT(EPOCH FROM now() - min(created_at))::float8 AS age
         FROM batch GROUP BY status
       UNION ALL
       SELECT 'contradiction' AS kind, 'open' AS status, count(*) AS count,
              COALESCE(EXTRACT(EPOCH FROM now() - min(seen_at))::float8, 0) AS age
         FROM payout_contradiction WHERE acknowledged_at IS NULL`);
    return rows.map((r) => ({
      kind: r.kind,
      status: r.status,
      count: Number(r.count),
      oldestAgeSeconds: Math.max(0, r.age),
    }));
  }
}
