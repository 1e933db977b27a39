import { fromPaise } from './money.js';
import { type Db } from './payout-row.js';
import { type FundsClaimFacts, type FundsGuard, type FundsSendResult } from './funds-claim.js';

/**
 * The reads of the funds-aware claim (ADR 0027), shared by payouts and batches: the facts the rule
 * needs, for tests and tools (a round reads them with its candidates). Not exported from the ledger.
 */
export class FundsClaimReads {
  /**
   * The facts alone (fundsFacts): the round reads them with its candidates, in one statement
   * (PayoutMoves.fundsRound, BatchMoves.fundsRound); this is for tests and tools. Exact.
   */
  async facts(db: Db, accountId: string, feePaise = 0n): Promise<FundsClaimFacts> {
    const { rows } = await db.query<RawFundsFacts>(/* sql: fundsClaim.facts */ `${fundsFacts('$2')}`, [
      accountId,
      fromPaise(feePaise),
    ]);
    const f = rows[0] && toFundsFacts(rows[0]);
    if (!f) throw new Error('the funds facts query returned no row');
    return f;
  }

  /** The reading row's guard as a round would read it, for tests and tools; null: no reading. */
  async guard(db: Db, accountId: string): Promise<FundsGuard | null> {
    const { rows } = await db.query<RawFundsFacts>(/* sql: fundsClaim.guard */ `${FUNDS_BOUND}`, [accountId]);
    const r = rows[0];
    if (!r) throw new Error('the funds bound query returned no row');
    return toFundsGuard(r);
  }

  /** The bound alone (FUNDS_BOUND), for tests and tools; null: the reading has no ask figures. */
  async bound(db: Db, accountId: string): Promise<FundsClaimFacts | null> {
    const { rows } = await db.query<RawFundsFacts>(/* sql: fundsClaim.bound */ `${FUNDS_BOUND}`, [accountId]);
    const r = rows[0];
    if (!r) throw new Error('the funds bound query returned no row');
    return toFundsFacts(r);
  }
}

/*
 * What a transfer takes from the balance, as the funds rounds count it (ADR 0027, amendment of
 * session 22): its amount (a batch's total) and the account's fee per transfer (`fee`: a parameter
 * position, rupees; FUNDS_HOLD's `fee`, 0 by default), once per payout and once per batch entry.
 * The provider takes its fee from the balance besides the amount; counting it here keeps a payout
 * that fits by amount alone from bouncing on its fee.
 */

/** What a payout (`p`) takes: its amount and the fee. */
const payoutCost = (p: string, fee: string) => `(${p}.amount + ${fee}::numeric)`;
/** What a batch (`b`) takes: its total and the fee of each entry. */
const batchCost = (b: string, fee: string) => `(${b}.total_amount + ${fee}::numeric * ${b}.entry_count)`;

/**
 * What account $1 sent and the provider has not answered it took, nor given back (in doubt:
 * SUBMITTING, UNKNOWN, ...): payouts and batches (what each takes: amount and fee) whose `taken_at`
 * is NULL and whose status is not FAILED, REJECTED or REVERSED, through the in-doubt indexes (few
 * rows: they leave on the answer). `fee`: the parameter position of the fee per transfer. Rupees,
 * exact.
 */
export function fundsInDoubt(fee: string): string {
  return `(COALESCE((SELECT sum(${payoutCost('p', fee)}) FROM payout p
                             WHERE p.account_id = $1 AND p.sent_at IS NOT NULL AND p.taken_at IS NULL
                               AND p.status NOT IN ('FAILED', 'REJECTED', 'REVERSED')), 0)
                + COALESCE((SELECT sum(${batchCost('b', fee)}) FROM batch b
                             WHERE b.account_id = $1 AND b.sent_at IS NOT NULL AND b.taken_at IS NULL
                               AND b.status NOT IN ('FAILED', 'REJECTED', 'REVERSED')), 0))`;
}

/**
 * The reading row's guard (FundsGuard) as a round's read returns it: `sent_total` and `read_at` as
 * text, exact (numeric; microseconds with the offset), to be compared by the round's send.
 */
const FUNDS_GUARD_COLUMNS = `r.sent_total::text AS guard_sent_total, r.read_at::text AS guard_read_at`;

/**
 * The latest reading of account $1 and what the account committed that it may not include (the
 * pipeline's `unreflected`), exactly: payouts and batches (their totals) not given back or never
 * taken (not FAILED, REJECTED, REVERSED) that were sent and not answered (fundsInDoubt, counted
 * whatever the times) or whose first answer that the provider took them came after the reading
 * was asked (`taken_at > read_at`, through the taken_at indexes: every payout taken since the
 * reading, so it grows with the burst between two readings). Each counts what it takes (amount and
 * fee; `fee`: the fee's parameter position). Paise (numeric times 100). One row.
 */
export function fundsFacts(fee: string): string {
  return `SELECT now() AS now, (r.available * 100)::bigint AS available, r.read_at,
              ${FUNDS_GUARD_COLUMNS},
              CASE WHEN r.read_at IS NULL THEN 0 ELSE
                ((${fundsInDoubt(fee)}
                + COALESCE((SELECT sum(${payoutCost('p', fee)}) FROM payout p
                             WHERE p.account_id = $1 AND p.taken_at > r.read_at
                               AND p.status NOT IN ('FAILED', 'REJECTED', 'REVERSED')), 0)
                + COALESCE((SELECT sum(${batchCost('b', fee)}) FROM batch b
                             WHERE b.account_id = $1 AND b.taken_at > r.read_at
                               AND b.status NOT IN ('FAILED', 'REJECTED', 'REVERSED')), 0)) * 100)::bigint
              END AS committed
         FROM (SELECT 1) AS one
         LEFT JOIN balance_reading r ON r.account_id = $1 AND r.read_at IS NOT NULL`;
}

/**
 * The latest reading of account $1 and a bound of what the account committed that it may not
 * include, from the reading's row alone (migration 1764693000000): what the funds rounds sent
 * since the reading was asked (`sent_total - ask_sent_total`) plus what was in doubt when it was
 * asked, each with the fee per transfer its send or the ask counted. Never less than fundsFacts'
 * exact sum (with the same fee): what that counts was sent after the ask, or was sent before it and
 * not answered then (taken after the ask, or not yet). More, when money was given back or the
 * reading already showed a take. `committed` is NULL when the reading has no ask figures (or there
 * is no reading): then only the exact sum may decide. Paise. One row.
 */
export const FUNDS_BOUND = `SELECT now() AS now, (r.available * 100)::bigint AS available, r.read_at,
              ${FUNDS_GUARD_COLUMNS},
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

/** The columns fundsFacts returns, as pg gives them. */
export interface RawFundsFacts {
  now: Date;
  available: string | null;
  read_at: Date | null;
  /** NULL: FUNDS_BOUND without the reading's ask figures. */
  committed: string | null;
  /** NULL: no reading. */
  guard_sent_total: string | null;
  guard_read_at: string | null;
}

/** The reading row a read saw (null: no reading yet: nothing is sent, so nothing to guard). */
export function toFundsGuard(r: RawFundsFacts): FundsGuard | null {
  return r.guard_sent_total === null || r.guard_read_at === null
    ? null
    : { sentTotal: r.guard_sent_total, readAt: r.guard_read_at };
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

/**
 * The guard of a funds-aware send (FundsGuard), as the first CTE of its statement: the account's
 * reading row (`account`), locked, if its `sent_total` and `read_at` are still those the round read
 * (`sentTotal`, `readAt`: parameter positions). Under READ COMMITTED a row another transaction
 * changed and committed meanwhile is checked again in its newest version (so a round waiting
 * here behind another round's send finds it changed), and the lock holds off the others' sends
 * until this transaction ends. Each send's moves require the guard's row.
 */
export function fundsGuard(account: string, sentTotal: string, readAt: string): string {
  return `guard AS (
         SELECT 1 FROM balance_reading
          WHERE account_id = ${account} AND sent_total = ${sentTotal}::numeric AND read_at = ${readAt}::timestamptz
          FOR UPDATE
       )`;
}

/**
 * What a funds-aware send moved (its `changed` CTE of payouts, or of batches) added to the
 * account's `sent_total` (FUNDS_BOUND) as what each takes (amount and the fee at parameter
 * position `fee`), returning the new total.
 */
export function fundsCounted(of: 'payout' | 'batch', account: string, fee: string): string {
  const cost = of === 'payout' ? payoutCost('c', fee) : batchCost('c', fee);
  return `counted AS (
         UPDATE balance_reading SET sent_total = sent_total + (SELECT sum(${cost}) FROM changed c)
          WHERE account_id = ${account} AND EXISTS (SELECT 1 FROM changed)
          RETURNING sent_total
       )`;
}

/** A guarded send's one row of outcome, joined to the rows it moved (none: one row of NULLs). */
export const FUNDS_GUARDED = `(SELECT EXISTS (SELECT 1 FROM guard) AS f_guarded,
                (SELECT sent_total::text FROM counted) AS f_sent_total)`;

/** The columns FUNDS_GUARDED adds to a guarded send's rows. */
export interface RawGuardedSend {
  f_guarded: boolean;
  f_sent_total: string | null;
}

/** A guarded send's rows (the first carries the outcome; rows of NULLs when nothing moved). */
export function guardedSend<Raw extends RawGuardedSend & { id: string | null }, R>(
  rows: Raw[],
  toRows: (moved: Raw[]) => R[],
): FundsSendResult<R> {
  const first = rows[0];
  if (!first) throw new Error('a guarded funds send returned no row');
  return {
    guarded: first.f_guarded,
    rows: toRows(rows.filter((r) => r.id !== null)),
    sentTotal: first.f_sent_total,
  };
}
