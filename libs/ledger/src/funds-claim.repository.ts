import { type Db } from './payout-row.js';
import { type FundsClaimFacts } from './funds-claim.js';

/**
 * The reads of the funds-aware claim (ADR 0027), shared by payouts and batches: the account's
 * lock for the round, and the facts the rule needs. Not exported from the ledger: only its claim
 * uses them, in its transaction.
 */
export class FundsClaimReads {
  /**
   * The account's lock for this transaction, if no other transaction holds it: false, the round is
   * skipped (another instance, or the other worker, is spending the account's room right now).
   * The two-key form, class 7426002 (its own space, apart from the one-key locks of the
   * migrations and the history maintenance), then the account's hashtext. Payouts and batches of
   * one account take the same lock: they spend one room.
   */
  async lock(db: Db, accountId: string): Promise<boolean> {
    const { rows } = await db.query<{ locked: boolean }>(
      /* sql: fundsClaim.lock */ `SELECT pg_try_advisory_xact_lock(7426002, hashtext($1::text)) AS locked`,
      [accountId],
    );
    return rows[0]?.locked === true;
  }

  /**
   * The facts alone (FUNDS_FACTS): the round reads them with its candidates, in one statement
   * (PayoutMoves.fundsRound, BatchMoves.fundsRound); this is for tests and tools.
   */
  async facts(db: Db, accountId: string): Promise<FundsClaimFacts> {
    const { rows } = await db.query<RawFundsFacts>(/* sql: fundsClaim.facts */ `${FUNDS_FACTS}`, [accountId]);
    const r = rows[0];
    if (!r) throw new Error('the funds facts query returned no row');
    return toFundsFacts(r);
  }
}

/**
 * The latest reading of account $1 and what the account committed that it may not include (the
 * pipeline's `unreflected`): payouts and batches (their totals) not given back or never taken (not
 * FAILED, REJECTED, REVERSED) that were sent and not answered (`taken_at` NULL: in doubt, counted
 * whatever the times; through the in-doubt indexes) or whose first answer that the provider took
 * them came after the reading was asked (`taken_at > read_at`, through the taken_at indexes).
 * Paise, exact (numeric times 100). One row.
 */
export const FUNDS_FACTS = `SELECT now() AS now, (r.available * 100)::bigint AS available, r.read_at,
              CASE WHEN r.read_at IS NULL THEN 0 ELSE
                ((COALESCE((SELECT sum(p.amount) FROM payout p
                             WHERE p.account_id = $1 AND p.sent_at IS NOT NULL AND p.taken_at IS NULL
                               AND p.status NOT IN ('FAILED', 'REJECTED', 'REVERSED')), 0)
                + COALESCE((SELECT sum(p.amount) FROM payout p
                             WHERE p.account_id = $1 AND p.taken_at > r.read_at
                               AND p.status NOT IN ('FAILED', 'REJECTED', 'REVERSED')), 0)
                + COALESCE((SELECT sum(b.total_amount) FROM batch b
                             WHERE b.account_id = $1 AND b.sent_at IS NOT NULL AND b.taken_at IS NULL
                               AND b.status NOT IN ('FAILED', 'REJECTED', 'REVERSED')), 0)
                + COALESCE((SELECT sum(b.total_amount) FROM batch b
                             WHERE b.account_id = $1 AND b.taken_at > r.read_at
                               AND b.status NOT IN ('FAILED', 'REJECTED', 'REVERSED')), 0)) * 100)::bigint
              END AS committed
         FROM (SELECT 1) AS one
         LEFT JOIN balance_reading r ON r.account_id = $1 AND r.read_at IS NOT NULL`;

/** The columns FUNDS_FACTS returns, as pg gives them. */
export interface RawFundsFacts {
  now: Date;
  available: string | null;
  read_at: Date | null;
  committed: string;
}

export function toFundsFacts(r: RawFundsFacts): FundsClaimFacts {
  return {
    reading:
      r.available === null || r.read_at === null
        ? null
        : { available: BigInt(r.available), readAt: r.read_at },
    committed: BigInt(r.committed),
    now: r.now,
  };
}
