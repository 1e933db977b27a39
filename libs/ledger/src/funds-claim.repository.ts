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
   * The latest reading and what the account committed after it: payouts and batches (their totals)
   * whose sending started after the reading's time (`sent_at`, through the sent_at indexes), not
   * given back or never taken (FAILED, REJECTED, REVERSED). Paise, exact (numeric times 100).
   */
  async facts(db: Db, accountId: string): Promise<FundsClaimFacts> {
    const { rows } = await db.query<{
      now: Date;
      available: string | null;
      read_at: Date | null;
      committed: string;
    }>(
      /* sql: fundsClaim.facts */ `SELECT now() AS now, (r.available * 100)::bigint AS available, r.read_at,
              CASE WHEN r.read_at IS NULL THEN 0 ELSE
                ((COALESCE((SELECT sum(p.amount) FROM payout p
                             WHERE p.account_id = $1 AND p.sent_at > r.read_at
                               AND p.status NOT IN ('FAILED', 'REJECTED', 'REVERSED')), 0)
                + COALESCE((SELECT sum(b.total_amount) FROM batch b
                             WHERE b.account_id = $1 AND b.sent_at > r.read_at
                               AND b.status NOT IN ('FAILED', 'REJECTED', 'REVERSED')), 0)) * 100)::bigint
              END AS committed
         FROM (SELECT 1) AS one
         LEFT JOIN balance_reading r ON r.account_id = $1 AND r.read_at IS NOT NULL`,
      [accountId],
    );
    const r = rows[0];
    if (!r) throw new Error('the funds facts query returned no row');
    return {
      reading:
        r.available === null || r.read_at === null
          ? null
          : { available: BigInt(r.available), readAt: r.read_at },
      committed: BigInt(r.committed),
      now: r.now,
    };
  }
}
