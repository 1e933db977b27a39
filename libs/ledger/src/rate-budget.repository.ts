import type pg from 'pg';

/*
 * The provider client's shared rate budget reserves send slots through its own port (RateSlotStore,
 * libs/provider-client); this repository serves it in the table's terms, below it: the ledger
 * imports nothing of the provider client, and the composition root (rate-budget.factory.ts) hands
 * the repository over as the port, where the compiler checks the two shapes agree (issue 31).
 */

/** A reservation: up to `wanted` slots `stepMicros` apart, none beyond `horizonMs` ahead of the clock. */
export interface RateSlotRequest {
  readonly accountId: string;
  readonly endpoint: string;
  readonly wanted: number;
  readonly stepMicros: number;
  readonly horizonMs: number;
  /** GCRA's tolerance: a slot may be this far before the clock (due at once). */
  readonly toleranceMicros: number;
}

/** Slots granted, in ms from the database's clock (`clockMs`, ms since the epoch) when it answered. */
export interface RateSlotGrant {
  readonly granted: number;
  readonly firstInMs: number;
  readonly nextInMs: number;
  readonly clockMs: number;
}

interface GrantRow {
  granted: number;
  first_in_ms: number;
  next_in_ms: number;
  clock_ms: number;
}

/**
 * The provider's rate limit as one row per (account, endpoint) that every instance reserves send
 * slots from (GCRA: `tat` is the next free slot), on Postgres's clock (`clock_timestamp()`), so
 * the instances' own clocks never matter. A reservation is one UPDATE of one row: instances take
 * turns on its lock, each for a block of slots.
 */
export class RateBudgetRepository {
  constructor(private readonly db: pg.Pool) {}

  async reserve(r: RateSlotRequest): Promise<RateSlotGrant> {
    let row = await this.take(r);
    if (!row) {
      await this.ensure(r.accountId, r.endpoint);
      row = await this.take(r);
    }
    if (!row) throw new Error('rate budget row missing after insert');
    return {
      granted: row.granted,
      firstInMs: row.first_in_ms,
      nextInMs: row.next_in_ms,
      clockMs: row.clock_ms,
    };
  }

  async pause(accountId: string, endpoint: string, ms: number): Promise<void> {
    await this.db.query(
      /* sql: rateBudget.pause */ `INSERT INTO provider_rate_budget AS b (account_id, endpoint, paused_until)
       VALUES ($1, $2, clock_timestamp() + $3::float8 * interval '1 millisecond')
       ON CONFLICT (account_id, endpoint)
       DO UPDATE SET paused_until = greatest(b.paused_until, excluded.paused_until)`,
      [accountId, endpoint, ms],
    );
  }

  /**
   * take: up to $3 slots $4 µs apart from the later of the row's next free slot, the clock less
   * the tolerance $6 µs (GCRA's burst: such a slot is due at once) and the pause, none beyond $5 ms ahead of the clock; the row's next free slot moves past the
   * last one granted. The sub-select reads the row's own columns, so a reservation that waited
   * for another's lock computes from what that one left. Answers in ms from the clock it read,
   * and that clock (ms since the epoch), so the caller can place the slots on its own clock.
   */
  private async take(r: RateSlotRequest): Promise<GrantRow | undefined> {
    const { rows } = await this.db.query<GrantRow>({
      name: 'rateBudget.take',
      text: /* sql: rateBudget.take */ `UPDATE provider_rate_budget AS b
          SET (tat, granted_from, granted, clock, reservations) = (
                SELECT s.start + g.n * $4::bigint * interval '1 microsecond', s.start, g.n, c.now,
                       b.reservations + 1
                  FROM (SELECT greatest(b.tat, c.now - $6::bigint * interval '1 microsecond',
                                      b.paused_until) AS start) AS s
                 CROSS JOIN LATERAL (
                       SELECT least($3::int, greatest(0, floor(
                                (extract(epoch FROM c.now - s.start) * 1000 + $5::int) * 1000 / $4::bigint
                              )::int + 1)) AS n) AS g)
         FROM (SELECT clock_timestamp() AS now) AS c
        WHERE b.account_id = $1 AND b.endpoint = $2
       RETURNING b.granted,
                 (extract(epoch FROM b.granted_from - b.clock) * 1000)::float8 AS first_in_ms,
                 (extract(epoch FROM greatest(b.tat, b.paused_until) - b.clock) * 1000)::float8 AS next_in_ms,
                 (extract(epoch FROM b.clock) * 1000)::float8 AS clock_ms`,
      values: [r.accountId, r.endpoint, r.wanted, r.stepMicros, r.horizonMs, r.toleranceMicros],
    });
    return rows[0];
  }

  private async ensure(accountId: string, endpoint: string): Promise<void> {
    await this.db.query(
      /* sql: rateBudget.ensure */ `INSERT INTO provider_rate_budget (account_id, endpoint) VALUES ($1, $2)
       ON CONFLICT (account_id, endpoint) DO NOTHING`,
      [accountId, endpoint],
    );
  }
}
