import type pg from 'pg';

import { fundsInDoubt } from './funds-claim.repository.js';
import { fromPaise } from './money.js';

type Db = pg.Pool | pg.PoolClient;

/**
 * When a balance read was asked, and the account's funds figures at that moment (null: none,
 * the rounds use the exact sum with the reading): rupees, exact.
 */
export interface BalanceAsk {
  readonly askedAt: Date;
  readonly figures: { readonly sentTotal: string; readonly inDoubt: string } | null;
}

/** An account's balance at the provider as last read (issue 32): exact decimals, 2 places. */
export interface StoredBalanceReading {
  readonly accountId: string;
  /** The available balance (the provider's ledger balance minus its pending transfers). */
  readonly available: string;
  /** The ledger balance (negative when overdrawn). */
  readonly ledger: string;
  /** When the provider answered it. */
  readonly readAt: Date;
  /** Reads that failed since this one (0: the latest read is this one). */
  readonly failures: number;
  /** When the last read failed, if one did since. */
  readonly failedAt: Date | null;
}

/**
 * The latest balance reading per account (table balance_reading, migration 1764686000000), shared
 * by every instance. Who reads is claimed here: `claimDue` moves an account's `next_read_at` one
 * interval forward, and only the instance whose UPDATE did so reads it, so the accounts are read
 * once per interval however many instances run. A failed read keeps the reading as it was.
 */
export class BalanceReadingRepository {
  /**
   * The accounts due for a read, claimed until `intervalMs` from now (Postgres's clock). An account
   * without a row is due at once (its row is made).
   */
  async claimDue(db: Db, accountIds: readonly string[], intervalMs: number): Promise<string[]> {
    if (accountIds.length === 0) return [];
    await db.query(
      /* sql: balanceReading.claimDue.ensure */ `INSERT INTO balance_reading (account_id) SELECT unnest($1::text[])
       ON CONFLICT (account_id) DO NOTHING`,
      [accountIds],
    );
    const { rows } = await db.query<{ account_id: string }>(
      /* sql: balanceReading.claimDue */ `UPDATE balance_reading
          SET next_read_at = now() + $2 * interval '1 millisecond'
        WHERE account_id = ANY($1::text[]) AND next_read_at <= now()
       RETURNING account_id`,
      [accountIds, intervalMs],
    );
    return rows.map((r) => r.account_id).sort();
  }

  /** The account is read at the next look of any instance (a provider notice about its balance). */
  async readSoon(db: Db, accountId: string): Promise<void> {
    await db.query(
      /* sql: balanceReading.readSoon */ `INSERT INTO balance_reading (account_id) VALUES ($1)
       ON CONFLICT (account_id) DO UPDATE SET next_read_at = now()`,
      [accountId],
    );
  }

  /**
   * A read is asked now: Postgres's clock (not the transaction's start: the time on the same clock
   * as the ledger's `sent_at` and `taken_at`, whatever the instance's own clock says), and, in the
   * same statement (one snapshot, taken before that time), what the account's funds rounds had sent
   * so far (`sent_total`) and what of it was in doubt (fundsInDoubt, each transfer with the
   * account's fee per transfer, `feePaise`, as the rounds count it): recorded with the reading,
   * they bound what it cannot include (FUNDS_BOUND; ADR 0027). Without the account's row (no claim
   * made it yet), the figures are null and only the exact sum is used with this reading.
   */
  async ask(db: Db, accountId: string, feePaise = 0n): Promise<BalanceAsk> {
    const { rows } = await db.query<{ asked_at: Date; sent_total: string | null; in_doubt: string }>(
      /* sql: balanceReading.ask */ `SELECT clock_timestamp() AS asked_at, r.sent_total::text AS sent_total,
              ${fundsInDoubt('$2')}::text AS in_doubt
         FROM (SELECT 1) AS one LEFT JOIN balance_reading r ON r.account_id = $1`,
      [accountId, fromPaise(feePaise)],
    );
    const r = rows[0]!;
    return {
      askedAt: r.asked_at,
      figures: r.sent_total === null ? null : { sentTotal: r.sent_total, inDoubt: r.in_doubt },
    };
  }

  /**
   * A successful read: the reading, the time it was asked and the figures taken then (none: the
   * rounds use the exact sum with it), and no failure since. An answer to an earlier ask than the
   * kept reading's is dropped.
   */
  async record(db: Db, accountId: string, available: string, ledger: string, ask: BalanceAsk): Promise<void> {
    await db.query(
      /* sql: balanceReading.record */ `INSERT INTO balance_reading
              (account_id, available, ledger, read_at, failures, ask_sent_total, ask_in_doubt)
       VALUES ($1, $2::numeric, $3::numeric, $4, 0, $5::numeric, $6::numeric)
       ON CONFLICT (account_id) DO UPDATE
          SET available = excluded.available, ledger = excluded.ledger, read_at = excluded.read_at,
              failures = 0, failed_at = NULL, failure = NULL,
              ask_sent_total = excluded.ask_sent_total, ask_in_doubt = excluded.ask_in_doubt
        WHERE balance_reading.read_at IS NULL OR balance_reading.read_at <= excluded.read_at`,
      [
        accountId,
        available,
        ledger,
        ask.askedAt,
        ask.figures?.sentTotal ?? null,
        ask.figures?.inDoubt ?? null,
      ],
    );
  }

  /** A failed read: counted; the reading and its time stay as they were. `failure`: an outcome class. */
  async failed(db: Db, accountId: string, failure: string): Promise<void> {
    await db.query(
      /* sql: balanceReading.failed */ `INSERT INTO balance_reading (account_id, failures, failed_at, failure)
       VALUES ($1, 1, now(), $2)
       ON CONFLICT (account_id) DO UPDATE
          SET failures = balance_reading.failures + 1, failed_at = now(), failure = excluded.failure`,
      [accountId, failure],
    );
  }

  /** The account's latest reading; null while no read has succeeded. */
  async latest(db: Db, accountId: string): Promise<StoredBalanceReading | null> {
    const { rows } = await db.query<Raw>(
      /* sql: balanceReading.latest */ `SELECT account_id, available::text AS available, ledger::text AS ledger,
              read_at, failures, failed_at
         FROM balance_reading WHERE account_id = $1 AND read_at IS NOT NULL`,
      [accountId],
    );
    const r = rows[0];
    return r
      ? {
          accountId: r.account_id,
          available: r.available,
          ledger: r.ledger,
          readAt: r.read_at,
          failures: r.failures,
          failedAt: r.failed_at,
        }
      : null;
  }
}

interface Raw {
  account_id: string;
  available: string;
  ledger: string;
  read_at: Date;
  failures: number;
  failed_at: Date | null;
}
