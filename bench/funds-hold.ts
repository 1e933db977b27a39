/**
 * BENCH_FUNDS_HOLD=1: the bench's services run with holding for funds on for the bench's account
 * (issue 32 item 3, ADR 0027), so the end-to-end figures include the check before sending. The
 * sandbox's balance (SANDBOX_INITIAL_BALANCE, bench/support.ts) is far above anything a bench
 * sends (10,000 payouts of 101.00 are about 1 million rupees of 10^13), so nothing is held: what
 * is measured is the check's cost, not waiting. The balance reader runs (the reconciler role,
 * every BENCH_BALANCE_READ_INTERVAL_MS, the production default 60 s unless set) and the bench
 * sends its first command only once the account has a reading, since a held account sends
 * nothing before its first reading. After the phase, `fundsHoldCheck` says how many payouts went
 * through the funds-aware claim (their `sent_at` is set) and whether any was held or rejected.
 *
 * Off (the default) changes nothing: the services get no FUNDS_HOLD and the bench waits for no
 * reading, so an old commit's bench and this one's measure the same thing.
 */
import pg from 'pg';

export const FUNDS_HOLD_BENCH = process.env['BENCH_FUNDS_HOLD'] === '1';

/** The account the bench's commands are sent on: the primary (PROVIDER_ACCOUNT_ID's default). */
const ACCOUNT = process.env['PROVIDER_ACCOUNT_ID'] ?? 'default';

/** The services' extra environment in funds-hold mode (none otherwise). */
export function fundsHoldEnv(): Record<string, string> {
  if (!FUNDS_HOLD_BENCH) return {};
  return {
    FUNDS_HOLD: JSON.stringify([
      { accountId: ACCOUNT, threshold: process.env['BENCH_FUNDS_HOLD_THRESHOLD'] ?? '5000.00' },
    ]),
    BALANCE_READ_INTERVAL_MS: process.env['BENCH_BALANCE_READ_INTERVAL_MS'] ?? '60000',
  };
}

/** One line for the bench's log saying what the services were given. */
export function describeFundsHold(): string {
  const e = fundsHoldEnv();
  return FUNDS_HOLD_BENCH
    ? `funds hold on: FUNDS_HOLD=${e['FUNDS_HOLD']} BALANCE_READ_INTERVAL_MS=${e['BALANCE_READ_INTERVAL_MS']}`
    : 'funds hold off (BENCH_FUNDS_HOLD unset)';
}

async function withClient<T>(dbUrl: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: dbUrl });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

/** Waits until the account has a balance reading (funds-hold mode only); throws after `timeoutMs`. */
export async function waitFirstReading(dbUrl: string, timeoutMs = 30_000): Promise<void> {
  if (!FUNDS_HOLD_BENCH) return;
  const t0 = performance.now();
  await withClient(dbUrl, async (c) => {
    for (;;) {
      const { rows } = await c.query<{ available: string }>(
        /* sql: bench.fundsHold.firstReading */ `SELECT available::text AS available
           FROM balance_reading WHERE account_id = $1 AND read_at IS NOT NULL`,
        [ACCOUNT],
      );
      const r = rows[0];
      if (r) {
        console.log(
          `    first balance reading of ${ACCOUNT} after ${Math.round(performance.now() - t0)} ms of waiting: available ${r.available}`,
        );
        return;
      }
      if (performance.now() - t0 > timeoutMs)
        throw new Error(`funds hold: no balance reading of ${ACCOUNT} within ${timeoutMs / 1000} s`);
      await new Promise((ok) => setTimeout(ok, 50));
    }
  });
}

/**
 * After a funds-hold phase: how many of the bench's payouts the funds-aware claim sent (`sent_at`
 * set), how many were ever held (`held_since` set) and how many ended REJECTED. The line starts
 * `funds hold check:` (scripts/bench-pair.sh reads it); `verified` means every payout went through
 * the check and none waited. On code without the hold (no `sent_at` column) it says so.
 */
export async function fundsHoldCheck(dbUrl: string, expected: number): Promise<string> {
  if (!FUNDS_HOLD_BENCH) return '';
  return withClient(dbUrl, async (c) => {
    try {
      const { rows } = await c.query<{ all: string; sent: string; held: string; rejected: string }>(
        /* sql: bench.fundsHold.check */ `SELECT count(*)::text AS all,
                count(*) FILTER (WHERE sent_at IS NOT NULL)::text AS sent,
                count(*) FILTER (WHERE held_since IS NOT NULL)::text AS held,
                count(*) FILTER (WHERE status = 'REJECTED')::text AS rejected
           FROM payout WHERE account_id = $1`,
        [ACCOUNT],
      );
      const r = rows[0];
      const [all, sent, held, rejected] = [r?.all, r?.sent, r?.held, r?.rejected].map(Number) as [
        number,
        number,
        number,
        number,
      ];
      const ok = sent >= expected && held === 0 && rejected === 0;
      return `funds hold check: ${ok ? 'verified' : 'NOT VERIFIED'}: ${sent} of ${all} payouts sent through the funds-aware claim (sent_at set; ${expected} expected), ${held} ever held, ${rejected} rejected`;
    } catch (e) {
      return `funds hold check: NOT VERIFIED: this code has no funds hold (${e instanceof Error ? e.message : String(e)})`;
    }
  });
}
