import type pg from 'pg';

type Db = pg.Pool | pg.PoolClient;

/**
 * Where money of an account stands before it is settled (issue 32, "what we have committed"):
 * - `in_flight`: sent to the provider and not settled. Payouts SUBMITTING (the call may have
 *   reached it), PENDING, UNKNOWN and REQUIRES_ATTENTION (handed to a person: it may have moved);
 *   the entries not yet final (not SUCCESS, FAILED, REJECTED, REVERSED) of batches SUBMITTING,
 *   PROCESSING, UNKNOWN or REQUIRES_ATTENTION.
 * - `queued`: accepted and waiting for the executor (RECEIVED, payouts and every entry of such
 *   batches): nothing sent yet.
 * - `awaiting_approval`: held by the account's approval policy (AWAITING_APPROVAL): nothing sent,
 *   and it may never be (rejected or expired).
 * Not counted: settled payouts (SUCCESS, FAILED, REJECTED, REVERSED), COMPLETED batches (every
 * entry is final), FAILED and REJECTED batches (the provider took none of it).
 */
export const FUNDS_STAGES = ['in_flight', 'queued', 'awaiting_approval'] as const;
export type FundsStage = (typeof FUNDS_STAGES)[number];

/** One account's payouts in one stage: how many, and their sum (exact decimal, 2 places). */
export interface CommittedFunds {
  readonly accountId: string;
  readonly stage: FundsStage;
  /** Payouts and batch entries (a batch counts as its entries, never as its total too). */
  readonly count: number;
  readonly amount: string;
}

/**
 * The funds figures in one statement. Each payout branch names its status as a literal, so the
 * planner reads it through the partial index of that status (payout_received_idx,
 * payout_awaiting_approval_idx, payout_search_status_part_idx) and the cost follows the live
 * payouts, not the table. Batches (up to 500 entries each, so far fewer rows) are read whole, as
 * the ledger gauge does; the entries are read per live batch (a lateral subquery: the entry
 * table's primary key, batch_id first), so a hash join never reads every entry ever made.
 */
export class FundsRepository {
  async committed(db: Db): Promise<CommittedFunds[]> {
    const { rows } = await db.query<Raw>(/* sql: funds.committed */ `
      SELECT account_id, stage, sum(n)::bigint AS count, sum(amount)::numeric(20,2)::text AS amount
        FROM (${PAYOUT_BRANCHES}
              UNION ALL
              SELECT b.account_id,
                     CASE b.status WHEN 'RECEIVED' THEN 'queued'
                                   WHEN 'AWAITING_APPROVAL' THEN 'awaiting_approval'
                                   ELSE 'in_flight' END AS stage,
                     sum(e.n) AS n, sum(e.amount) AS amount
                FROM batch b
                CROSS JOIN LATERAL (
                  SELECT count(*) AS n, sum(i.amount) AS amount FROM batch_item i
                   WHERE i.batch_id = b.id AND i.status NOT IN ('SUCCESS', 'FAILED', 'REJECTED', 'REVERSED')) AS e
               WHERE b.status IN ('RECEIVED', 'AWAITING_APPROVAL', 'SUBMITTING', 'PROCESSING', 'UNKNOWN',
                                  'REQUIRES_ATTENTION')
                 AND e.n > 0
               GROUP BY 1, 2) AS s
       GROUP BY account_id, stage
       ORDER BY account_id, stage`);
    return rows.map((r) => ({
      accountId: r.account_id,
      stage: r.stage,
      count: Number(r.count),
      amount: r.amount,
    }));
  }
}

/** One branch per live status, its status a literal (see FundsRepository). */
const PAYOUT_BRANCHES = `SELECT account_id, 'queued' AS stage, count(*) AS n, sum(amount) AS amount
  FROM payout WHERE status = 'RECEIVED' GROUP BY account_id
UNION ALL
SELECT account_id, 'awaiting_approval' AS stage, count(*) AS n, sum(amount) AS amount
  FROM payout WHERE status = 'AWAITING_APPROVAL' GROUP BY account_id
UNION ALL
SELECT account_id, 'in_flight' AS stage, count(*) AS n, sum(amount) AS amount
  FROM payout WHERE status = 'SUBMITTING' GROUP BY account_id
UNION ALL
SELECT account_id, 'in_flight' AS stage, count(*) AS n, sum(amount) AS amount
  FROM payout WHERE status = 'PENDING' GROUP BY account_id
UNION ALL
SELECT account_id, 'in_flight' AS stage, count(*) AS n, sum(amount) AS amount
  FROM payout WHERE status = 'UNKNOWN' GROUP BY account_id
UNION ALL
SELECT account_id, 'in_flight' AS stage, count(*) AS n, sum(amount) AS amount
  FROM payout WHERE status = 'REQUIRES_ATTENTION' GROUP BY account_id`;

interface Raw {
  account_id: string;
  stage: FundsStage;
  count: string;
  amount: string;
}
