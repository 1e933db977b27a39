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
 * - `held_for_funds`: held because the provider's available balance has no room for it yet
 *   (HELD_FOR_FUNDS, payouts and every entry of such batches; ADR 0027): nothing sent; sent when
 *   funds allow, REJECTED (`funds_hold_expired`) once held past the account's maximum.
 * Not counted: settled payouts (SUCCESS, FAILED, REJECTED, REVERSED), COMPLETED batches (every
 * entry is final), FAILED and REJECTED batches (the provider took none of it).
 */
export const FUNDS_STAGES = ['in_flight', 'queued', 'awaiting_approval', 'held_for_funds'] as const;
export type FundsStage = (typeof FUNDS_STAGES)[number];

/** One account's payouts in one stage: how many, and their sum (exact decimal, 2 places). */
export interface CommittedFunds {
  readonly accountId: string;
  readonly stage: FundsStage;
  /** Payouts and batch entries (a batch counts as its entries, never as its total too). */
  readonly count: number;
  readonly amount: string;
  /**
   * The oldest `held_since` of the stage's payouts and batches: `held_for_funds` only (when the
   * longest-held of them entered HELD_FOR_FUNDS); null in every other stage.
   */
  readonly heldSince: Date | null;
}

/** A payout or a batch of one account in HELD_FOR_FUNDS, as the funds view lists them. */
export interface HeldForFunds {
  readonly subject: 'payout' | 'batch';
  /** payout.id or batch.id (with `subject` and `createdKey`, where a page ended). */
  readonly id: string;
  readonly accountId: string;
  /** The payout's transferId, or the batch's batchTransferId. */
  readonly transferId: string;
  /** The payout's amount; the batch's total (a batch is held and sent whole). */
  readonly amount: string;
  /** 1 for a payout; a batch's entries. */
  readonly entries: number;
  /** Why it waits, as recorded when it was held (`insufficient_funds`, `no_balance_reading`). */
  readonly reason: string | null;
  readonly heldSince: Date | null;
  readonly createdAt: Date;
  /** created_at as Postgres writes it (microseconds kept), for the next page's cursor. */
  readonly createdKey: string;
}

/** Where a page of held payouts and batches ended: (created_at, subject, id). */
export interface HeldKey {
  readonly createdAt: string;
  readonly subject: 'payout' | 'batch';
  readonly id: string;
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
      SELECT account_id, stage, sum(n)::bigint AS count, sum(amount)::numeric(20,2)::text AS amount,
             min(since) AS held_since
        FROM (${PAYOUT_BRANCHES}
              UNION ALL
              SELECT b.account_id,
                     CASE b.status WHEN 'RECEIVED' THEN 'queued'
                                   WHEN 'AWAITING_APPROVAL' THEN 'awaiting_approval'
                                   WHEN 'HELD_FOR_FUNDS' THEN 'held_for_funds'
                                   ELSE 'in_flight' END AS stage,
                     sum(e.n) AS n, sum(e.amount) AS amount,
                     min(b.held_since) FILTER (WHERE b.status = 'HELD_FOR_FUNDS') AS since
                FROM batch b
                CROSS JOIN LATERAL (
                  SELECT count(*) AS n, sum(i.amount) AS amount FROM batch_item i
                   WHERE i.batch_id = b.id AND i.status NOT IN ('SUCCESS', 'FAILED', 'REJECTED', 'REVERSED')) AS e
               WHERE b.status IN ('RECEIVED', 'AWAITING_APPROVAL', 'HELD_FOR_FUNDS', 'SUBMITTING', 'PROCESSING',
                                  'UNKNOWN', 'REQUIRES_ATTENTION')
                 AND e.n > 0
               GROUP BY 1, 2) AS s
       GROUP BY account_id, stage
       ORDER BY account_id, stage`);
    return rows.map((r) => ({
      accountId: r.account_id,
      stage: r.stage,
      count: Number(r.count),
      amount: r.amount,
      heldSince: r.held_since,
    }));
  }

  /**
   * One account's payouts and batches in HELD_FOR_FUNDS, oldest first ((created_at, subject, id):
   * the order the hold's rule looks at them), after `after`. Each branch reads its partial index
   * (payout_held_for_funds_idx, batch_held_for_funds_idx: account_id, created_at), so the cost
   * follows what is held, not the table.
   */
  async held(db: Db, accountId: string, after: HeldKey | null, limit: number): Promise<HeldForFunds[]> {
    const { rows } = await db.query<RawHeld>(
      /* sql: funds.held */ `SELECT * FROM (
         (SELECT 'payout' AS subject, id, account_id, transfer_id, amount::text AS amount, 1 AS entries, reason,
                 held_since, created_at, created_at::text AS created_key
            FROM payout
           WHERE status = 'HELD_FOR_FUNDS' AND account_id = $1
             AND ($2::timestamptz IS NULL OR created_at >= $2::timestamptz)
             AND ($2::timestamptz IS NULL OR (created_at, 'payout', id) > ($2::timestamptz, $3::text, $4::bigint))
           ORDER BY created_at, id
           LIMIT $5)
         UNION ALL
         (SELECT 'batch' AS subject, id, account_id, batch_transfer_id AS transfer_id, total_amount::text AS amount,
                 entry_count AS entries, reason, held_since, created_at, created_at::text AS created_key
            FROM batch
           WHERE status = 'HELD_FOR_FUNDS' AND account_id = $1
             AND ($2::timestamptz IS NULL OR created_at >= $2::timestamptz)
             AND ($2::timestamptz IS NULL OR (created_at, 'batch', id) > ($2::timestamptz, $3::text, $4::bigint))
           ORDER BY created_at, id
           LIMIT $5)) AS h
       ORDER BY created_at, subject, id
       LIMIT $5`,
      [accountId, after?.createdAt ?? null, after?.subject ?? null, after?.id ?? null, limit],
    );
    return rows.map((r) => ({
      subject: r.subject,
      id: String(r.id),
      accountId: r.account_id,
      transferId: r.transfer_id,
      amount: r.amount,
      entries: Number(r.entries),
      reason: r.reason,
      heldSince: r.held_since,
      createdAt: r.created_at,
      createdKey: r.created_key,
    }));
  }
}

/** One branch per live status, its status a literal (see FundsRepository). */
const PAYOUT_BRANCHES = `SELECT account_id, 'queued' AS stage, count(*) AS n, sum(amount) AS amount, NULL::timestamptz AS since
  FROM payout WHERE status = 'RECEIVED' GROUP BY account_id
UNION ALL
SELECT account_id, 'held_for_funds' AS stage, count(*) AS n, sum(amount) AS amount, min(held_since) AS since
  FROM payout WHERE status = 'HELD_FOR_FUNDS' GROUP BY account_id
UNION ALL
SELECT account_id, 'awaiting_approval' AS stage, count(*) AS n, sum(amount) AS amount, NULL AS since
  FROM payout WHERE status = 'AWAITING_APPROVAL' GROUP BY account_id
UNION ALL
SELECT account_id, 'in_flight' AS stage, count(*) AS n, sum(amount) AS amount, NULL AS since
  FROM payout WHERE status = 'SUBMITTING' GROUP BY account_id
UNION ALL
SELECT account_id, 'in_flight' AS stage, count(*) AS n, sum(amount) AS amount, NULL AS since
  FROM payout WHERE status = 'PENDING' GROUP BY account_id
UNION ALL
SELECT account_id, 'in_flight' AS stage, count(*) AS n, sum(amount) AS amount, NULL AS since
  FROM payout WHERE status = 'UNKNOWN' GROUP BY account_id
UNION ALL
SELECT account_id, 'in_flight' AS stage, count(*) AS n, sum(amount) AS amount, NULL AS since
  FROM payout WHERE status = 'REQUIRES_ATTENTION' GROUP BY account_id`;

interface Raw {
  account_id: string;
  stage: FundsStage;
  count: string;
  amount: string;
  held_since: Date | null;
}

interface RawHeld {
  subject: 'payout' | 'batch';
  id: string;
  account_id: string;
  transfer_id: string;
  amount: string;
  entries: number | string;
  reason: string | null;
  held_since: Date | null;
  created_at: Date;
  created_key: string;
}
