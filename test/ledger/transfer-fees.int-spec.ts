import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { payoutStateEvent, PayoutRepository, type PayoutRow } from '#ledger';
import { PayoutMoves } from '../../libs/ledger/src/payout-moves.repository.js';
import { createTestDatabase, type TestDatabase } from '#test-support';

// The provider's fee on the payout row (issue 32): written only by the ledger's moves, exact
// (numeric, never a float), kept when a later move says nothing of it, published in the event of
// a settled payout only; the database refuses a negative one.
describe("the provider's fee on the payout row (real Postgres)", () => {
  let db: TestDatabase;
  let pool: pg.Pool;
  const payouts = new PayoutRepository();
  const moves = new PayoutMoves();

  before(async () => {
    db = await createTestDatabase();
    pool = new pg.Pool({ connectionString: db.url, max: 4 });
  });
  after(async () => {
    pool?.on('error', () => undefined);
    await pool?.end();
    await db?.drop();
  });
  beforeEach(async () => {
    await pool.query('DELETE FROM payout');
  });

  async function pendingRow(transferId: string): Promise<PayoutRow> {
    await moves.insertNew(pool, [
      {
        accountId: 'default',
        transferId,
        kind: 'standard_transfer',
        requestHash: 'h',
        request: {},
        requestSecrets: null,
        amount: '10.00',
        requestId: null,
        providerApi: 'v2',
      },
    ]);
    const [claimed] = await moves.claimForSubmission(pool, 'w', 60_000, 1);
    assert.ok(claimed);
    const pending = await moves.transition(pool, claimed, 'PENDING', { nextCheckAt: new Date() }, false);
    assert.ok(pending);
    return pending;
  }

  it('a new payout has no fee; its pending event carries none', async () => {
    const p = await pendingRow('fee_l_0');
    assert.equal(p.fee, null);
    assert.equal(payoutStateEvent(p).payload.data.fee, undefined);
  });

  it('SUCCESS with the fee: kept exactly, in the row and its event; a later move without it keeps it', async () => {
    const p = await pendingRow('fee_l_1');
    const done = await moves.transition(pool, p, 'SUCCESS', { fee: { charge: '3.00', tax: '0.495' } }, true);
    assert.deepEqual(done?.fee, { charge: '3.00', tax: '0.495' });
    assert.deepEqual(done && payoutStateEvent(done).payload.data.fee, { charge: '3.00', tax: '0.495' });
    const reversed = done && (await moves.transition(pool, done, 'REVERSED', { reason: 'r' }, true));
    assert.deepEqual(reversed?.fee, { charge: '3.00', tax: '0.495' }, 'not given: kept');
    assert.deepEqual(reversed && payoutStateEvent(reversed).payload.data.fee, {
      charge: '3.00',
      tax: '0.495',
    });
    const row = await payouts.findOne(pool, 'default', 'fee_l_1');
    assert.deepEqual(row?.fee, { charge: '3.00', tax: '0.495' });
  });

  it('a known zero is kept as 0.00; a charge without tax has no tax', async () => {
    const zero = await moves.transition(
      pool,
      await pendingRow('fee_l_2'),
      'SUCCESS',
      { fee: { charge: '0.00', tax: '0.00' } },
      true,
    );
    assert.deepEqual(zero?.fee, { charge: '0.00', tax: '0.00' });
    const noTax = await moves.transition(
      pool,
      await pendingRow('fee_l_3'),
      'SUCCESS',
      { fee: { charge: '7.50' } },
      true,
    );
    assert.deepEqual(noTax?.fee, { charge: '7.50' });
    assert.deepEqual(noTax && payoutStateEvent(noTax).payload.data.fee, { charge: '7.50' });
  });

  it('a move into any other state writes no fee, whoever gives one (the ledger keeps the rule)', async () => {
    const p = await pendingRow('fee_l_5');
    const again = await moves.transition(pool, p, 'PENDING', { fee: { charge: '3.00', tax: '0.54' } }, false);
    assert.equal(again?.fee, null, 'pending: not written');
    const failed =
      again && (await moves.transition(pool, again, 'FAILED', { fee: { charge: '3.00' } }, true));
    assert.equal(failed?.fee, null, 'failed: nothing was paid, not written');
    const row = await payouts.findOne(pool, 'default', 'fee_l_5');
    assert.equal(row?.fee, null);
  });

  it('the database refuses a negative fee', async () => {
    const p = await pendingRow('fee_l_4');
    await assert.rejects(moves.transition(pool, p, 'SUCCESS', { fee: { charge: '-1.00' } }, true));
  });
});
