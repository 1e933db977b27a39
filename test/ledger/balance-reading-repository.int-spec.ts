import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { BalanceReadingRepository } from '#ledger';
import { createTestDatabase, type TestDatabase } from '#test-support';

// The balance readings' statements on real Postgres (issue 32): one instance wins an account's read
// per interval however many look at once, a notice makes it due again, a failed read keeps the reading.
describe('BalanceReadingRepository (real Postgres)', () => {
  let db: TestDatabase;
  let pool: pg.Pool;
  const repo = new BalanceReadingRepository();

  before(async () => {
    db = await createTestDatabase();
    pool = new pg.Pool({ connectionString: db.url, max: 8 });
  });
  after(async () => {
    pool?.on('error', () => undefined);
    await pool?.end();
    await db?.drop();
  });

  it('instances looking at once: each account is claimed by exactly one, then not again within the interval', async () => {
    const ids = ['a', 'b', 'c'];
    const looks = await Promise.all(Array.from({ length: 8 }, () => repo.claimDue(pool, ids, 60_000)));
    assert.deepEqual(looks.flat().sort(), ids, JSON.stringify(looks));
    assert.deepEqual(await repo.claimDue(pool, ids, 60_000), []);
  });

  it('readSoon makes an account due again at once, for one instance only', async () => {
    await repo.readSoon(pool, 'b');
    const looks = await Promise.all(Array.from({ length: 4 }, () => repo.claimDue(pool, ['a', 'b'], 60_000)));
    assert.deepEqual(looks.flat(), ['b']);
  });

  it('a reading is exact and kept across failed reads, with its time; success resets the failures', async () => {
    assert.equal(await repo.latest(pool, 'a'), null, 'no reading before a success');
    const at = new Date('2026-11-27T10:00:00.123Z');
    await repo.record(pool, 'a', '9999999999999.99', '-0.01', { askedAt: at, figures: null });
    await repo.failed(pool, 'a', 'unknown');
    await repo.failed(pool, 'a', 'fatal-config');
    assert.deepEqual(
      { ...(await repo.latest(pool, 'a')), failedAt: undefined },
      {
        accountId: 'a',
        available: '9999999999999.99',
        ledger: '-0.01',
        readAt: at,
        failures: 2,
        failedAt: undefined,
      },
    );
    // An older answer (another instance's slower read) never replaces a newer one.
    await repo.record(pool, 'a', '1.00', '1.00', { askedAt: new Date(at.getTime() - 1), figures: null });
    assert.equal((await repo.latest(pool, 'a'))?.available, '9999999999999.99');
    await repo.record(pool, 'a', '5.50', '6.00', { askedAt: new Date(at.getTime() + 1), figures: null });
    const now = await repo.latest(pool, 'a');
    assert.deepEqual([now?.available, now?.failures, now?.failedAt], ['5.50', 0, null]);
  });

  it('a failed first read leaves no reading', async () => {
    await repo.failed(pool, 'new', 'retry-safe');
    assert.equal(await repo.latest(pool, 'new'), null);
  });
});
