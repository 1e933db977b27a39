import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { LedgerStatsRepository, payoutStateEvent, PayoutRepository, type PayoutRow } from '#ledger';
import { PayoutMoves } from '../../libs/ledger/src/payout-moves.repository.js';
import { createTestDatabase, type TestDatabase } from '#test-support';

// The provider's sub-state on the row (issue 29): set only by the ledger's moves, published in the
// payout's events, cleared when the payout settles, refused by the database outside the vocabulary.
describe('the provider sub-state on the payout row (real Postgres)', () => {
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
        kind: 'direct_transfer',
        requestHash: 'h',
        request: {},
        requestSecrets: null,
        amount: '10.00',
        requestId: null,
      },
    ]);
    const [claimed] = await moves.claimForSubmission(pool, 'w', 60_000, 1);
    assert.ok(claimed);
    const pending = await moves.transition(pool, claimed, 'PENDING', { nextCheckAt: new Date() }, false);
    assert.ok(pending);
    return pending;
  }

  it('PENDING -> PENDING in a new sub-state: a new version, its event says where it waits; a new sub-state restarts the count', async () => {
    const p = await pendingRow('ss_1');
    assert.equal(p.subState, null);
    await pool.query(`UPDATE payout SET check_count = 7 WHERE id = $1`, [p.id]);
    const queued = await moves.transition(
      pool,
      { ...p },
      'PENDING',
      { subState: 'queued', nextCheckAt: new Date() },
      false,
    );
    assert.ok(queued);
    assert.equal(queued.subState, 'queued');
    assert.equal(queued.version, p.version + 1);
    assert.equal(queued.checkCount, 0, 'a new wait, a new schedule');
    assert.equal(payoutStateEvent(queued).payload.data.subState, 'queued');
    assert.equal(payoutStateEvent(queued).eventType, 'payouts.payout.pending');
    // Not given: kept (a move that says nothing about it).
    const kept = await moves.transition(
      pool,
      queued,
      'REQUIRES_ATTENTION',
      { reason: 'x', nextCheckAt: null },
      false,
    );
    assert.equal(kept?.subState, 'queued', 'the person sees where it waited');
  });

  it('a settled payout waits nowhere: a terminal move clears it whatever is given', async () => {
    const p = await pendingRow('ss_2');
    const q = await moves.transition(
      pool,
      p,
      'PENDING',
      { subState: 'sent_to_bank', nextCheckAt: new Date() },
      false,
    );
    assert.ok(q);
    const done = await moves.transition(pool, q, 'SUCCESS', { subState: 'sent_to_bank' }, true);
    assert.equal(done?.subState, null);
    assert.equal(done && payoutStateEvent(done).payload.data.subState, undefined);
    const row = await payouts.findOne(pool, 'default', 'ss_2');
    assert.equal(row?.subState, null);
  });

  it('the database refuses a word outside the vocabulary', async () => {
    const p = await pendingRow('ss_3');
    await assert.rejects(
      pool.query(`UPDATE payout SET sub_state = 'ON_HOLD' WHERE id = $1`, [p.id]),
      /payout_sub_state_check/,
    );
  });

  it('the attention claim takes only due REQUIRES_ATTENTION rows', async () => {
    const p = await pendingRow('ss_4');
    const ra = await moves.transition(
      pool,
      p,
      'REQUIRES_ATTENTION',
      { reason: 'queued_past_provider_maximum', nextCheckAt: new Date(Date.now() - 1000) },
      false,
    );
    assert.ok(ra);
    const other = await pendingRow('ss_5');
    assert.ok(other);
    const claimed = await payouts.claimAttentionChecks(pool, 'w', 60_000, 10);
    assert.deepEqual(
      claimed.map((r) => r.transferId),
      ['ss_4'],
    );
    assert.deepEqual(await payouts.claimAttentionChecks(pool, 'w', 60_000, 10), [], 'leased');
  });
  it("the oldest-unclear age leaves out the provider's long waits (they have their own bounds), and counts them", async () => {
    const queued = await pendingRow('ss_6');
    await moves.transition(pool, queued, 'PENDING', { subState: 'queued', nextCheckAt: new Date() }, false);
    await pendingRow('ss_7');
    // The queued one is three days old, the plain one an hour.
    await pool.query(`UPDATE payout SET created_at = now() - interval '3 days' WHERE transfer_id = 'ss_6'`);
    await pool.query(`UPDATE payout SET created_at = now() - interval '1 hour' WHERE transfer_id = 'ss_7'`);
    const pending = (await new LedgerStatsRepository().snapshot(pool)).find(
      (r) => r.kind === 'payout' && r.status === 'PENDING',
    );
    assert.equal(pending?.count, 2);
    assert.ok(
      pending && pending.oldestAgeSeconds > 3500 && pending.oldestAgeSeconds < 4000,
      String(pending?.oldestAgeSeconds),
    );
  });
});
