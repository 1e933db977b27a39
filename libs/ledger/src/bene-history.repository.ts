import type pg from 'pg';

type Db = pg.Pool | pg.PoolClient;

/** One page of payouts to a beneficiary, newest first, as v1 beneHistory pages them. */
export interface BeneHistoryPageQuery {
  readonly accountId: string;
  readonly beneId: string;
  /** yyyy-mm-dd, a day in India (Asia/Kolkata), inclusive. */
  readonly startDate?: string;
  /** yyyy-mm-dd, inclusive. */
  readonly endDate?: string;
  /** 1 to 25. */
  readonly perPage: number;
  /** From 1. */
  readonly page: number;
}

/** A payout to the beneficiary: amount as exact decimal text, the ledger's status. */
export interface BeneHistoryRow {
  readonly transferId: string;
  readonly createdAt: Date;
  readonly amount: string;
  readonly mode: string;
  readonly status: string;
}

interface Raw {
  transfer_id: string;
  created_at: Date;
  amount: string;
  mode: string;
  status: string;
}

/**
 * Beneficiary history from our own ledger: the provider publishes no v2 replacement for v1
 * beneHistory, and every payout to a registered beneficiary of a v2 account went through here.
 * Read only; the index `payout_bene_history_idx` serves it.
 */
export class BeneHistoryRepository {
  async page(db: Db, q: BeneHistoryPageQuery): Promise<BeneHistoryRow[]> {
    const { rows } = await db.query<Raw>(
      /* sql: beneHistory.page */ `SELECT transfer_id, created_at, amount::text AS amount,
              upper(coalesce(request->>'transferMode', 'banktransfer')) AS mode, status
         FROM payout
        WHERE account_id = $1 AND request->>'beneId' = $2
          AND ($3::date IS NULL OR created_at >= $3::date::timestamp AT TIME ZONE 'Asia/Kolkata')
          AND ($4::date IS NULL OR created_at < ($4::date + 1)::timestamp AT TIME ZONE 'Asia/Kolkata')
        ORDER BY created_at DESC, id DESC
        LIMIT $5 OFFSET $6`,
      [q.accountId, q.beneId, q.startDate ?? null, q.endDate ?? null, q.perPage, (q.page - 1) * q.perPage],
    );
    return rows.map((r) => ({
      transferId: r.transfer_id,
      createdAt: r.created_at,
      amount: r.amount,
      mode: r.mode,
      status: r.status,
    }));
  }
}
