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
   * (PayoutMoves.fundsRound, BatchMoves.fundsRound); this is for tests and tools. Exact.
   */
  async facts(db: Db, accountId: string): Promise<FundsClaimFacts> {
    const { rows } = await db.query<RawFundsFacts>(/* sql: fundsClaim.facts */ `${FUNDS_FACTS}`, [accountId]);
    const f = rows[0] && toFundsFacts(rows[0]);
    if (!f) throw new Error('the funds facts query returned no row');
    return f;
  }

  /** The bound alone (FUNDS_BOUND), for tests and tools; null: the reading has no ask figures. */
  async bound(db: Db, accountId: string): Promise<FundsClaimFacts | null> {
    const { rows } = await db.query<RawFundsFacts>(/* sql: fundsClaim.bound */ `${FUNDS_BOUND}`, [accountId]);
    const r = rows[0];
    if (!r) throw new Error('the funds bound query returned no row');
    return toFundsFacts(r);
  }
}

/**
 * What account $1 sent and the provider has not answered it took, nor given back (in doubt:
 * SUBMITTING, UNKNOWN, ...): payouts' amounts and batches' totals whose `taken_at` is NULL and whose
 * status is not FAILED, REJECTED or REVERSED, through the in-doubt indexes (few rows: they leave on
 * the answer). Rupees, exact.
 */
export const FUNDS_IN_DOUBT = `(COALESCE((SELECT sum(p.amount) FROM payout p
                             WHERE p.account_id = $1 AND p.sent_at IS NOT NULL AND p.taken_at IS NULL
                               AND p.status NOT IN ('FAILED', 'REJECTED', 'REVERSED')), 0)
                + COALESCE((SELECT sum(b.total_amount) FROM batch b
                             WHERE b.account_id = $1 AND b.sent_at IS NOT NULL AND b.taken_at IS NULL
                               AND b.status NOT IN ('FAILED', 'REJECTED', 'REVERSED')), 0))`;

/**
 * The latest reading of account $1 and what the account committed that it may not include (the
 * pipeline's `unreflected`), exactly: payouts and batches (their totals) not given back or never
 * taken (not FAILED, REJECTED, REVERSED) that were sent and not answered (FUNDS_IN_DOUBT, counted
 * whatever the times) or whose first answer that the provider took them came after the reading
 * was asked (`taken_at > read_at`, through the taken_at indexes: every payout taken since the
 * reading, so it grows with the burst between two readings). Paise (numeric times 100). One row.
 */
export const FUNDS_FACTS = `SELECT now() AS now, (r.available * 100)::bigint AS available, r.read_at,
              CASE WHEN r.read_at IS NULL THEN 0 ELSE
                ((${FUNDS_IN_DOUBT}
                + COALESCE((SELECT sum(p.amount) FROM payout p
                             WHERE p.account_id = $1 AND p.taken_at > r.read_at
                               AND p.status NOT IN ('FAILED', 'REJECTED', 'REVERSED')), 0)
                + COALESCE((SELECT sum(b.total_amount) FROM batch b
                             WHERE b.account_id = $1 AND b.taken_at > r.read_at
                               AND b.status NOT IN ('FAILED', 'REJECTED', 'REVERSED')), 0)) * 100)::bigint
              END AS committed
         FROM (SELECT 1) AS one
         LEFT JOIN balance_reading r ON r.account_id = $1 AND r.read_at IS NOT NULL`;

/**
 * The latest reading of account $1 and a bound of what the account committed that it may not
 * include, from the reading's row alone (migration 1764693000000): what the funds rounds sent
 * since the reading was asked (`sent_total - ask_sent_total`) plus what was in doubt when it was
 * asked. Never less than FUNDS_FACTS's exact sum: what that counts was sent after the ask, or was
 * sent before it and not answered then (taken after the ask, or not yet). More, when money was given
 * back or the reading already showed a take. `committed` is NULL when the reading has no ask
 * figures (or there is no reading): then only the exact sum may decide. Paise. One row.
 */
export const FUNDS_BOUND = `SELECT now() AS now, (r.available * 100)::bigint AS available, r.read_at,
              ((r.sent_total - r.ask_sent_total + r.ask_in_doubt) * 100)::bigint AS committed
         FROM (SELECT 1) AS one
         LEFT JOIN balance_reading r ON r.account_id = $1 AND r.read_at IS NOT NULL`;

/** The rows an UPDATE returned (in no set order), in the order of `from` (a round's plan: oldest first). */
export function inOrderOf<R extends { id: string }>(from: ReadonlyArray<{ id: string }>, rows: R[]): R[] {
  const at = new Map(from.map((r, i) => [r.id, i]));
  return rows.sort((a, b) => at.get(a.id)! - at.get(b.id)!);
}

/** How a funds round reads its facts: the bound from the reading's row, or the exact sum. */
export type FundsFactsRead = 'bound' | 'exact';

/** The columns FUNDS_FACTS returns, as pg gives them. */
export interface RawFundsFacts {
  now: Date;
  available: string | null;
  read_at: Date | null;
  /** NULL: FUNDS_BOUND without the reading's ask figures. */
  committed: string | null;
}

/** The facts as the rule sees them; null when the row has no committed figure (FUNDS_BOUND without one). */
export function toFundsFacts(r: RawFundsFacts): FundsClaimFacts | null {
  if (r.committed === null) return null;
  return {
    reading:
      r.available === null || r.read_at === null
        ? null
        : { available: BigInt(r.available), readAt: r.read_at },
    committed: BigInt(r.committed),
    now: r.now,
  };
}
