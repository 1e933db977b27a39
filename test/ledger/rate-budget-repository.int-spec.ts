import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { RateBudgetRepository } from '#ledger';
import { createTestDatabase, type TestDatabase } from '#test-support';

// The shared rate budget's statements on real Postgres: what one reservation grants (the same as
// grantSlots, its model in libs/provider-client), and that reservations racing on one row from
// many connections never hand out the same slot twice.
describe('RateBudgetRepository (real Postgres)', () => {
  let db: TestDatabase;
  let pool: pg.Pool;
  let repo: RateBudgetRepository;

  before(async () => {
    db = await createTestDatabase();
    pool = new pg.Pool({ connectionString: db.url, max: 8 });
    repo = new RateBudgetRepository(pool);
  });
  after(async () => {
    pool?.on('error', () => undefined);
    await pool?.end();
    await db?.drop();
  });

  const req = (
    endpoint: string,
    wanted: number,
    stepMicros: number,
    horizonMs: number,
    toleranceMicros = 0,
  ) => ({ accountId: 'acc-1', endpoint, wanted, stepMicros, horizonMs, toleranceMicros });

  it('a first reservation starts now; later ones queue behind it, up to the horizon', async () => {
    // One slot a second, booked up to 3.5 s ahead: the statements' own latency does not matter.
    const sentAt = Date.now();
    const first = await repo.reserve(req('idle', 3, 1_000_000, 3_500));
    // The clock it read, in ms since the epoch (this machine's clock here: the same host).
    assert.ok(
      first.clockMs >= sentAt - 50 && first.clockMs <= Date.now() + 50,
      `clock ${first.clockMs - sentAt} ms from the call`,
    );
    assert.equal(first.granted, 3);
    assert.ok(first.firstInMs <= 0 && first.firstInMs > -100, `first slot at ${first.firstInMs} ms`);
    assert.ok(Math.abs(first.nextInMs - first.firstInMs - 3_000) < 0.001, `next at ${first.nextInMs}`);

    const second = await repo.reserve(req('idle', 5, 1_000_000, 3_500));
    assert.equal(second.granted, 1, 'only the slot at 3 s is within the horizon');
    assert.ok(second.firstInMs > 2_500 && second.firstInMs <= 3_000, `first at ${second.firstInMs}`);

    const third = await repo.reserve(req('idle', 5, 1_000_000, 3_500));
    assert.equal(third.granted, 0);
    assert.ok(third.nextInMs > 3_500, `room opens in ${third.nextInMs - 3_500} ms`);
  });

  it('a tolerance lets a burst go at once after idle, then the slots are spaced again', async () => {
    // One slot a second, a tolerance of 3 steps: after idle, 4 slots are due at once.
    const burst = await repo.reserve(req('burst', 6, 1_000_000, 1_500, 3_000_000));
    assert.equal(burst.granted, 5, 'the 4 due at once, and the one at +1 s within the horizon');
    assert.ok(
      burst.firstInMs <= -3_000 && burst.firstInMs > -3_100,
      `first slot ${burst.firstInMs} ms: 3 steps before the clock, so the first 4 are due now`,
    );
    assert.ok(Math.abs(burst.nextInMs - burst.firstInMs - 5_000) < 0.001, `next at ${burst.nextInMs}`);
    const after = await repo.reserve(req('burst', 6, 1_000_000, 1_500, 3_000_000));
    assert.equal(after.granted, 0, 'the burst is spent: the next slot is 2 s away, past the horizon');
    assert.ok(after.nextInMs > 1_900 && after.nextInMs <= 2_000, `room in ${after.nextInMs} ms`);
  });

  it('racing reservations on one row from 8 connections hand out every slot once', async () => {
    await repo.reserve(req('race', 1, 1000, 60_000));
    // Start the row 10 s ahead of the clock, so every grant queues behind the one before.
    await pool.query(
      `UPDATE provider_rate_budget SET tat = clock_timestamp() + interval '10 seconds', reservations = 0
        WHERE endpoint = 'race'`,
    );
    const { rows: before } = await pool.query<{ us: string }>(
      `SELECT (extract(epoch FROM tat) * 1e6)::bigint::text AS us FROM provider_rate_budget WHERE endpoint = 'race'`,
    );
    const workers = 8;
    const each = 25;
    const wanted = 7;
    const grants = await Promise.all(
      Array.from({ length: workers }, async () => {
        let n = 0;
        for (let i = 0; i < each; i += 1)
          n += (await repo.reserve(req('race', wanted, 1000, 60_000))).granted;
        return n;
      }),
    );
    const total = grants.reduce((a, b) => a + b, 0);
    assert.equal(total, workers * each * wanted, 'every reservation was granted in full');
    const { rows } = await pool.query<{ us: string; reservations: string }>(
      `SELECT (extract(epoch FROM tat) * 1e6)::bigint::text AS us, reservations::text FROM provider_rate_budget
        WHERE endpoint = 'race'`,
    );
    assert.equal(rows[0]?.reservations, String(workers * each));
    // Contiguous: the row moved by exactly one step per slot granted. A reservation that read a
    // stale row would have handed out slots another had, and the row would have moved less.
    assert.equal(BigInt(rows[0].us) - BigInt(before[0]!.us), BigInt(total * 1000));
  });

  it('a pause (even on a row not there yet) holds every reservation until it ends', async () => {
    await repo.pause('acc-1', 'paused', 5_000);
    const g = await repo.reserve(req('paused', 3, 10_000, 200));
    assert.equal(g.granted, 0);
    assert.ok(g.nextInMs > 4_900 && g.nextInMs <= 5_000, `room in ${g.nextInMs} ms`);
    await repo.pause('acc-1', 'paused', 1_000);
    const h = await repo.reserve(req('paused', 3, 10_000, 200));
    assert.ok(h.nextInMs > 4_800, 'a shorter pause does not shorten a longer one');
    const other = await repo.reserve(req('not-paused', 3, 10_000, 200));
    assert.equal(other.granted, 3, 'a pause is per (account, endpoint)');
  });
});
