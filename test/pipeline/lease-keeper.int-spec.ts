import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { PayoutRepository, type PayoutRow } from '#ledger';
import { LeaseKeeper } from '#pipeline';
import { PayoutMoves } from '../../libs/ledger/src/payout-moves.repository.js';
import { capturingLogger, createTestDatabase, type TestDatabase } from '#test-support';

const payouts = new PayoutRepository();
// The ledger's internal statements (ADR 0003, amendment), as fixtures.
const moves = new PayoutMoves();

// The heartbeat of in-flight calls against real Postgres: leases held stay out of the
// reconciler's reach; a lease that is gone (the row moved on under another writer) is reported.
describe('LeaseKeeper', () => {
  let db: TestDatabase;
  let pool: pg.Pool;
  before(async () => {
    db = await createTestDatabase();
    pool = new pg.Pool({ connectionString: db.url, max: 3 });
  });
  after(async () => {
    await pool?.end();
    await db?.drop();
  });

  async function claim(transferId: string, owner: string, leaseMs: number): Promise<PayoutRow> {
    await moves.insertNew(pool, [
      {
        accountId: 'default',
        transferId,
        kind: 'direct_transfer',
        requestHash: 'h',
        request: {},
        requestSecrets: null,
        amount: '10.00',
        requestId: null,
      },
    ]);
    const [row] = await moves.claimForSubmission(pool, owner, leaseMs, 1);
    assert.ok(row, 'claimed');
    return row;
  }

  it('keeps a held row from the reconciler past its original lease, and lets it go once released', async () => {
    const row = await claim('lk_held', 'me', 300);
    const keeper = new LeaseKeeper(pool, payouts, capturingLogger('silent').logger, {
      owner: 'me',
      leaseMs: 300,
      intervalMs: 75,
    });
    keeper.hold(row.id, row.version);
    await sleep(900);
    assert.deepEqual(await payouts.claimDueChecks(pool, 'reconciler', 300, 10), [], 'still held');
    keeper.release(row.id);
    await sleep(450);
    const due = await payouts.claimDueChecks(pool, 'reconciler', 300, 10);
    assert.deepEqual(
      due.map((r) => r.transferId),
      ['lk_held'],
      'due once nobody renews it',
    );
    keeper.stop();
  });

  it('reports a lease lost to another writer once, and stops renewing it', async () => {
    const row = await claim('lk_lost', 'me2', 60_000);
    const lost: string[] = [];
    const { logger, lines } = capturingLogger('warn');
    const keeper = new LeaseKeeper(
      pool,
      payouts,
      logger,
      { owner: 'me2', leaseMs: 60_000, intervalMs: 60_000 },
      (id) => lost.push(id),
    );
    keeper.hold(row.id, row.version);
    await keeper.renew();
    assert.deepEqual(lost, []);
    // Another writer moves the row on (an operator, a reconciler after a stall).
    await moves.transition(pool, row, 'UNKNOWN', { reason: 'elsewhere' }, false);
    await keeper.renew();
    await keeper.renew();
    assert.deepEqual(lost, [row.id]);
    assert.deepEqual(keeper.inFlight(), []);
    assert.ok(lines.some((l) => l.includes('lease lost')));
    keeper.release(row.id);
    keeper.stop();
  });
});
