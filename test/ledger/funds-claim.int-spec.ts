import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { PayoutLedger } from '#ledger';
import { capturingLogger } from '#test-support';
import { ACC, fundsFixture, H } from './funds-fixture.js';

/*
 * The funds-aware claim (issue 32 item 3, ADR 0027) on real Postgres: the ledger reads the
 * account's reading, what it sent after it and its first waiting payouts (or batches), the
 * pipeline's rule decides, and the ledger applies the verdicts as moves (history, event). First
 * in, first out with skipping; a hold written once; a maximum hold that rejects what was never
 * sent; what was sent after the reading counted and what before not; two claimers in two pools
 * never spending the same room; batches held or sent whole.
 */

interface Row {
  transfer_id: string;
  status: string;
  version: number;
  attempt: number;
  reason: string | null;
  sent: boolean;
  held: boolean;
  next_check_at: Date | null;
  lease_owner: string | null;
}

describe('the funds-aware claim (real Postgres)', () => {
  const { f, decide, room, round, pay, batch, reading, answer, answerBatch, committed, watchingReads } =
    fundsFixture();

  async function rows(): Promise<Map<string, Row>> {
    const { rows: r } = await f.pool.query<Row>(
      `SELECT transfer_id, status, version, attempt, reason, sent_at IS NOT NULL AS sent,
              held_since IS NOT NULL AS held, next_check_at, lease_owner
         FROM payout WHERE account_id = $1 ORDER BY created_at`,
      [ACC],
    );
    return new Map(r.map((x) => [x.transfer_id, x]));
  }
  const statuses = async () =>
    Object.fromEntries([...(await rows()).values()].map((r) => [r.transfer_id, r.status]));

  async function events(): Promise<Array<{ type: string; subject: string; reason: string | null }>> {
    const { rows: r } = await f.pool.query<{ type: string; subject: string; reason: string | null }>(
      `SELECT event_type AS type, payload->>'subject' AS subject, payload->'data'->>'reason' AS reason
         FROM outbox ORDER BY id`,
    );
    return r;
  }

  it('first in, first out with skipping: what fits is sent, what does not is held with its reason', async () => {
    await reading('100.00');
    await pay('f_60', '60.00');
    await pay('f_50', '50.00');
    await pay('f_30', '30.00');
    await pay('f_20', '20.00');
    const r = await f.ledger.claimWithFunds(round());
    assert.equal(r.locked, true);
    assert.deepEqual(
      r.sent.map((p) => p.transferId),
      ['f_60', 'f_30'],
    );
    assert.equal(r.held, 2);
    assert.equal(r.slotBound, false);
    const after = await rows();
    for (const id of ['f_60', 'f_30']) {
      const p = after.get(id)!;
      assert.equal(p.status, 'SUBMITTING', id);
      assert.equal(p.attempt, 1, 'a new attempt, as the claim');
      assert.equal(p.sent, true, 'sent_at written');
      assert.equal(p.lease_owner, 'w');
      assert.ok(p.next_check_at, 'due after the lease, as the claim');
    }
    for (const id of ['f_50', 'f_20']) {
      const p = after.get(id)!;
      assert.equal(p.status, 'HELD_FOR_FUNDS', id);
      assert.equal(p.reason, 'insufficient_funds');
      assert.equal(p.attempt, 0, 'never sent');
      assert.equal(p.sent, false);
      assert.equal(p.held, true, 'held_since written');
    }
    const held = (await events()).filter((e) => e.type === 'payouts.payout.held_for_funds');
    assert.deepEqual(
      held.map((e) => [e.subject, e.reason]),
      [
        ['f_50', 'insufficient_funds'],
        ['f_20', 'insufficient_funds'],
      ],
    );
    const { rows: h } = await f.pool.query<{ transfer_id: string; from_status: string; to_status: string }>(
      `SELECT transfer_id, from_status, to_status FROM state_history WHERE account_id = $1 AND from_status IS NOT NULL
        ORDER BY transfer_id`,
      [ACC],
    );
    assert.deepEqual(
      h.map((x) => `${x.transfer_id}:${x.from_status}>${x.to_status}`),
      [
        'f_20:RECEIVED>HELD_FOR_FUNDS',
        'f_30:RECEIVED>SUBMITTING',
        'f_50:RECEIVED>HELD_FOR_FUNDS',
        'f_60:RECEIVED>SUBMITTING',
      ],
    );
  });

  it('holds a payout once: later rounds that still hold it write nothing', async () => {
    await reading('10.00');
    await pay('o_1', '50.00');
    assert.equal((await f.ledger.claimWithFunds(round())).held, 1);
    const first = (await rows()).get('o_1')!;
    const eventsBefore = (await events()).length;
    const { rows: hb } = await f.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM state_history');
    for (let i = 0; i < 3; i++) {
      const r = await f.ledger.claimWithFunds(round());
      assert.equal(r.held, 0);
      assert.equal(r.sent.length, 0);
    }
    const again = (await rows()).get('o_1')!;
    assert.equal(again.version, first.version, 'no new version');
    assert.equal((await events()).length, eventsBefore, 'no new event');
    const { rows: ha } = await f.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM state_history');
    assert.equal(ha[0]!.n, hb[0]!.n, 'no new history row');
  });

  it('without a reading nothing is sent: every payout waits, reason no_balance_reading', async () => {
    await pay('n_1', '1.00');
    const r = await f.ledger.claimWithFunds(round());
    assert.equal(r.sent.length, 0);
    assert.equal((await rows()).get('n_1')!.reason, 'no_balance_reading');
  });

  it('releases a held payout when a reading shows room, its hold reason cleared', async () => {
    await reading('10.00');
    await pay('r_1', '50.00');
    await f.ledger.claimWithFunds(round());
    await reading('80.00');
    const r = await f.ledger.claimWithFunds(round());
    assert.deepEqual(
      r.sent.map((p) => [p.transferId, p.status, p.reason]),
      [['r_1', 'SUBMITTING', null]],
    );
    const { rows: h } = await f.pool.query<{ from_status: string }>(
      `SELECT from_status FROM state_history WHERE transfer_id = 'r_1' AND to_status = 'SUBMITTING'`,
    );
    assert.deepEqual(
      h.map((x) => x.from_status),
      ['HELD_FOR_FUNDS'],
    );
  });

  it('rejects at the maximum hold what never fitted (funds_hold_expired, never sent: no failed watch)', async () => {
    await reading('10.00');
    await pay('x_old', '50.00');
    await pay('x_new', '50.00');
    await pay('x_fits', '5.00');
    await f.ledger.claimWithFunds(round({ decide: decide(0n, H) }));
    // x_old has waited two hours, x_new only now.
    await f.pool.query(
      `UPDATE payout SET held_since = now() - interval '2 hours' WHERE transfer_id = 'x_old'`,
    );
    const r = await f.ledger.claimWithFunds(round({ decide: decide(0n, H) }));
    assert.equal(r.rejected, 1);
    const after = await rows();
    const x = after.get('x_old')!;
    assert.equal(x.status, 'REJECTED');
    assert.equal(x.reason, 'funds_hold_expired');
    assert.equal(x.attempt, 0);
    assert.equal(x.sent, false);
    assert.equal(x.next_check_at, null, 'no failed watch: it was never sent');
    const { rows: le } = await f.pool.query<{ detail: string }>(
      `SELECT last_error->>'detail' AS detail FROM payout WHERE transfer_id = 'x_old'`,
    );
    assert.equal(le[0]!.detail, 'held for funds longer than the maximum hold of 1h');
    assert.equal(after.get('x_new')!.status, 'HELD_FOR_FUNDS');
    assert.equal(after.get('x_fits')!.status, 'SUBMITTING', 'sent on the first round: it fitted');
    const rejected = (await events()).filter((e) => e.subject === 'x_old').at(-1)!;
    assert.deepEqual([rejected.type, rejected.reason], ['payouts.payout.rejected', 'funds_hold_expired']);
  });

  it('counts what the reading may not include: answered after it was asked, or never answered; not what was answered before it, nor what was given back', async () => {
    await reading('10000.00', 60_000);
    for (const [id, amount] of [
      ['k_answered_after', '1.00'],
      ['k_answered_before', '2.00'],
      ['k_submitting', '4.00'],
      ['k_unknown', '8.00'],
      ['k_failed', '16.00'],
      ['k_returned_late', '32.00'],
    ] as const)
      await pay(id, amount);
    await batch('kb_answered_after', ['64.00']);
    await batch('kb_answered_before', ['128.00']);
    await batch('kb_submitting', ['256.00']);
    // All sent first (sent_at), before the reading below is asked.
    assert.equal((await f.ledger.claimWithFunds(round())).sent.length, 6);
    assert.equal((await f.batchLedger.claimWithFunds(round())).sent.length, 3);
    // Before the reading: the provider answers it took these, or gives one back.
    await answer('k_answered_before', 'PENDING');
    await answerBatch('kb_answered_before', 'COMPLETED');
    await answer('k_unknown', 'UNKNOWN');
    await answer('k_failed', 'FAILED');
    // The reading is asked now, after every claim committed (sent_at < read_at for all).
    await reading('10000.00');
    // Answers that come after it: the provider may have taken these after it computed the balance.
    await answer('k_answered_after', 'PENDING');
    await answer('k_answered_after', 'SUCCESS');
    await answerBatch('kb_answered_after', 'COMPLETED');
    await answer('k_returned_late', 'FAILED');
    // Counted: answered after (1 + 64), never answered, whatever the times (4 + 8 + 256).
    assert.equal(await committed(), (1n + 64n + 4n + 8n + 256n) * 100n);
    // A reading asked after all the answers includes the answered ones; the unanswered still count.
    await reading('10000.00');
    assert.equal(await committed(), (4n + 8n + 256n) * 100n);
    // Answered at last: out of the committed sum once a reading is asked after the answer.
    await answer('k_submitting', 'PENDING');
    await answer('k_unknown', 'SUCCESS');
    await answerBatch('kb_submitting', 'COMPLETED');
    assert.equal(await committed(), (4n + 8n + 256n) * 100n, 'answered after the reading: still counted');
    await reading('10000.00');
    assert.equal(await committed(), 0n);
    const { rows: t } = await f.pool.query<{ transfer_id: string; taken: boolean }>(
      `SELECT transfer_id, taken_at IS NOT NULL AS taken FROM payout ORDER BY transfer_id`,
    );
    assert.deepEqual(
      t.map((x) => `${x.transfer_id}:${x.taken}`),
      [
        'k_answered_after:true',
        'k_answered_before:true',
        'k_failed:false',
        'k_returned_late:false',
        'k_submitting:true',
        'k_unknown:true',
      ],
    );
  });

  it('a batch the provider accepted (PROCESSING) counts until it is COMPLETED: the provider debits its entries as it processes them', async () => {
    await reading('1000.00', 60_000);
    await batch('pb_1', ['300.00', '200.00']);
    assert.equal((await f.batchLedger.claimWithFunds(round())).sent.length, 1);
    await answerBatch('pb_1', 'PROCESSING');
    // Asked after the acceptance, the reading may not show the entries: none was processed yet.
    await reading('1000.00');
    assert.equal(await committed(), 500_00n);
    await pay('pb_p', '500.01');
    assert.equal((await f.ledger.claimWithFunds(round())).held, 1, '1,000.00 - 500.00 leaves 500.00');
    await answerBatch('pb_1', 'COMPLETED');
    assert.equal(await committed(), 500_00n, 'completed after the reading was asked: still counted');
    await reading('1000.00');
    assert.equal(await committed(), 0n, 'a reading asked after its completion shows its entries');
  });

  it('a payout claimed before the reading was asked and answered after it keeps the room it took', async () => {
    // The hole this closes: the claim commits, the reading is asked, the call reaches the provider
    // after it computed the balance (the rate limiter held it), and the answer comes after.
    await reading('100.00', 60_000);
    await pay('h_first', '70.00');
    assert.equal((await f.ledger.claimWithFunds(round())).sent.length, 1);
    await reading('100.00');
    await answer('h_first', 'PENDING');
    await pay('h_second', '70.00');
    const r = await f.ledger.claimWithFunds(round());
    assert.equal(r.sent.length, 0, 'room = 100 - 70: the second does not fit');
    assert.equal((await statuses())['h_second'], 'HELD_FOR_FUNDS');
  });

  it('sends no more than the free slots and leaves the rest untouched for the next round', async () => {
    await reading('100.00');
    await pay('s_1', '10.00');
    await pay('s_2', '10.00');
    await pay('s_3', '10.00');
    await pay('s_big', '500.00');
    const r = await f.ledger.claimWithFunds(round({ slots: 2 }));
    assert.deepEqual(
      r.sent.map((p) => p.transferId),
      ['s_1', 's_2'],
    );
    assert.equal(r.slotBound, true);
    assert.deepEqual(await statuses(), {
      s_1: 'SUBMITTING',
      s_2: 'SUBMITTING',
      s_3: 'RECEIVED',
      s_big: 'RECEIVED',
    });
    const next = await f.ledger.claimWithFunds(round({ slots: 2 }));
    assert.deepEqual(
      next.sent.map((p) => p.transferId),
      ['s_3'],
    );
    assert.equal(next.slotBound, false);
    assert.equal((await statuses())['s_big'], 'HELD_FOR_FUNDS');
  });

  it('new payouts are decided even behind a full window of held ones (a window per status)', async () => {
    await reading('1.00');
    for (let k = 0; k < 5; k++) await pay(`w_${k}`, '50.00');
    for (let i = 0; i < 3; i++) await f.ledger.claimWithFunds(round({ window: 2 }));
    assert.deepEqual(Object.values(await statuses()), Array(5).fill('HELD_FOR_FUNDS'));
  });

  it('reads the whole window when room runs short in the narrow read, first in first out across it', async () => {
    // 17 held payouts that do not fit, then 3 held that will: older than the new ones. A round
    // with one slot reads 1 + 16 of each status first; only the whole window finds h_18.
    for (let k = 1; k <= 20; k++) await pay(`h_${k}`, k <= 17 ? '50.00' : '1.00');
    await f.ledger.claimWithFunds(round({ slots: 1 }));
    assert.deepEqual(new Set(Object.values(await statuses())), new Set(['HELD_FOR_FUNDS']), 'no reading');
    await pay('n_1', '1.00');
    await pay('n_2', '1.00');
    await reading('10.00');
    const r = await f.ledger.claimWithFunds(round({ slots: 1 }));
    assert.deepEqual(
      r.sent.map((p) => p.transferId),
      ['h_18'],
      'the oldest that fits, not a newer one of the narrow read',
    );
    assert.equal(r.slotBound, true);
    const again = await f.ledger.claimWithFunds(round({ slots: 1 }));
    assert.deepEqual(
      again.sent.map((p) => p.transferId),
      ['h_19'],
    );
  });

  it('an account with room fills its slots from the narrow read, oldest first', async () => {
    await reading('1000.00');
    for (let k = 0; k < 40; k++) await pay(`m_${String(k).padStart(2, '0')}`, '1.00');
    const r = await f.ledger.claimWithFunds(round({ slots: 3 }));
    assert.deepEqual(
      r.sent.map((p) => p.transferId),
      ['m_00', 'm_01', 'm_02'],
    );
    assert.equal(r.slotBound, true);
    assert.equal(Object.values(await statuses()).filter((x) => x === 'RECEIVED').length, 37);
  });

  it("the claim of the other accounts leaves a held account's payouts to the funds-aware claim", async () => {
    await pay('e_held', '1.00');
    await pay('e_free', '1.00', 'acc_free');
    const claimed = await f.ledger.claimForSubmission('w', 60_000, 10, [ACC]);
    assert.deepEqual(
      claimed.map((p) => p.transferId),
      ['e_free'],
    );
    assert.equal((await statuses())['e_held'], 'RECEIVED');
    const { rows: free } = await f.pool.query<{ sent: boolean }>(
      `SELECT sent_at IS NOT NULL AS sent FROM payout WHERE transfer_id = 'e_free'`,
    );
    assert.equal(free[0]!.sent, false, 'sent_at is only the funds-aware claim’s');
    await answer('e_free', 'PENDING', 'acc_free');
    const { rows: taken } = await f.pool.query<{ taken: boolean }>(
      `SELECT taken_at IS NOT NULL AS taken FROM payout WHERE transfer_id = 'e_free'`,
    );
    assert.equal(taken[0]!.taken, false, 'taken_at only for what the funds-aware claim sent');
  });

  it("a round whose reading row changed before its send (another round's send) moves nothing on what it read, and decides again", async () => {
    await reading('100.00');
    await batch('race_b', ['30.00', '20.00']);
    await pay('race_p', '60.00');
    // Another instance's batch round sends race_b (50.00) and has not committed: this round's read
    // does not see it (room 100.00, race_p fits), and its send waits on the reading row.
    const c = await f.other.connect();
    const waiting = async () =>
      (
        await f.pool.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
        )
      ).rows[0]!.n;
    try {
      await c.query('BEGIN');
      const guard = await f.reads.guard(c, ACC);
      assert.ok(guard);
      const { rows: b } = await c.query<{ id: string; version: number; status: 'RECEIVED' }>(
        `SELECT id::text, version, status FROM batch WHERE batch_transfer_id = 'race_b'`,
      );
      const other = await f.batchMoves.sendFunded(c, ACC, 'other', 60_000, b, guard, 0n);
      assert.equal(other.rows.length, 1);
      const racing = f.ledger.claimWithFunds(round());
      for (let i = 0; (await waiting()) < 1; i++) {
        assert.ok(i < 200, "the round's send waits on the reading row");
        await new Promise((r) => setTimeout(r, 10));
      }
      await c.query('COMMIT');
      const r = await racing;
      // On its first read race_p fitted; on the row as it is, 100.00 - 50.00 leaves no room for it.
      assert.equal(r.locked, true);
      assert.deepEqual(r.sent, []);
      assert.equal(r.held, 1);
    } finally {
      c.release();
    }
    assert.equal((await statuses())['race_p'], 'HELD_FOR_FUNDS');
    const { rows } = await f.pool.query<{ sent_total: string }>(
      `SELECT sent_total::text FROM balance_reading WHERE account_id = $1`,
      [ACC],
    );
    assert.equal(rows[0]!.sent_total, '50.00', 'only the batch was counted');
  });

  it('a round that decides again after another round sent records when it sent (sent_at), not when its transaction began', async () => {
    await reading('200.00');
    await batch('late_b', ['30.00', '20.00']);
    await pay('late_p', '60.00');
    // Between this round's first read and its send, another round sends late_b and commits.
    const { ledger } = watchingReads(async (n) => {
      if (n !== 1) return;
      await new Promise((res) => setTimeout(res, 20));
      const guard = await f.reads.guard(f.other, ACC);
      assert.ok(guard);
      const { rows: b } = await f.other.query<{ id: string; version: number; status: 'RECEIVED' }>(
        `SELECT id::text, version, status FROM batch WHERE batch_transfer_id = 'late_b'`,
      );
      assert.equal(
        (await f.batchMoves.sendFunded(f.other, ACC, 'other', 60_000, b, guard, 0n)).rows.length,
        1,
      );
    });
    const r = await ledger.claimWithFunds(round());
    assert.deepEqual(
      r.sent.map((p) => p.transferId),
      ['late_p'],
      'sent on the second read: 200.00 - 50.00 leaves room',
    );
    const { rows } = await f.pool.query<{ later: boolean }>(
      `SELECT (SELECT sent_at FROM payout WHERE transfer_id = 'late_p')
            > (SELECT sent_at FROM batch WHERE batch_transfer_id = 'late_b') AS later`,
    );
    assert.equal(rows[0]!.later, true, "late_p's send came after late_b's, and sent_at says so");
  });

  it('a round that finds the row changed at every try moves nothing (locked false)', async () => {
    await reading('100.00');
    await pay('churn_1', '10.00');
    // Every read of this round is followed by a new reading before its send.
    let churn = true;
    const { ledger: churning, reads } = watchingReads(async () => {
      if (churn) await reading('100.00');
    });
    const r = await churning.claimWithFunds(round());
    assert.equal(r.locked, false);
    assert.deepEqual(r.sent, []);
    assert.equal(reads(), 3, 'read and planned again after each change (FUNDS_ROUND_TRIES)');
    assert.equal((await statuses())['churn_1'], 'RECEIVED');
    churn = false;
    assert.equal((await churning.claimWithFunds(round())).sent.length, 1, 'sent once the row stays still');
  });

  const counting = () => watchingReads();

  it('fast path: after a round with room, the next sends within the room it remembers, reading nothing first, and goes the full way at a payout that does not fit', async () => {
    const { ledger, reads } = counting();
    await reading('100.00');
    await pay('q_10', '10.00');
    assert.deepEqual(
      (await ledger.claimWithFunds(round({ room: room() }))).sent.map((p) => p.transferId),
      ['q_10'],
    );
    assert.equal(reads(), 1, 'the first round reads');
    await pay('q_20', '20.00');
    await pay('q_30', '30.00');
    const fast = await ledger.claimWithFunds(round({ room: room() }));
    assert.deepEqual(
      fast.sent.map((p) => p.transferId),
      ['q_20', 'q_30'],
    );
    assert.equal(reads(), 1, 'sent from the remembered room: no read');
    assert.deepEqual([fast.held, fast.short, fast.slotBound], [0, false, false]);
    // Sent like any funds-aware send: sent_at, counted in sent_total, its event and history.
    const r = await rows();
    assert.deepEqual(
      ['q_20', 'q_30'].map((t) => [r.get(t)!.status, r.get(t)!.sent, r.get(t)!.lease_owner]),
      [
        ['SUBMITTING', true, 'w'],
        ['SUBMITTING', true, 'w'],
      ],
    );
    assert.equal(await committed(), 60_00n);
    assert.equal((await f.reads.bound(f.pool, ACC))?.committed, 60_00n);
    assert.deepEqual(
      (await events()).filter((e) => e.subject === 'q_30').map((e) => e.type),
      ['payouts.payout.submitting'],
    );
    // 40.00 left: 45.00 does not fit, so the round goes the full way and holds it; 5.00 is sent.
    await pay('q_45', '45.00');
    await pay('q_5', '5.00');
    const full = await ledger.claimWithFunds(round({ room: room() }));
    assert.ok(reads() > 1, 'the full way read');
    assert.deepEqual(
      full.sent.map((p) => p.transferId),
      ['q_5'],
    );
    assert.deepEqual([full.held, full.short], [1, true]);
    // Short: the next round reads again (the held one comes first).
    const before = reads();
    await pay('q_1', '1.00');
    await ledger.claimWithFunds(round({ room: room() }));
    assert.ok(reads() > before);
  });

  it('fast path: a new reading changes the row, so the remembered room is not spent (full way on the new reading)', async () => {
    const { ledger, reads } = counting();
    await reading('100.00');
    await pay('n_10', '10.00');
    await ledger.claimWithFunds(round({ room: room() }));
    await reading('15.00');
    await pay('n_20', '20.00');
    const r = await ledger.claimWithFunds(round({ room: room() }));
    assert.deepEqual(r.sent, []);
    assert.equal(r.held, 1, '15.00 - 10.00 in doubt leaves no room for 20.00');
    assert.ok(reads() > 1);
    assert.equal((await statuses())['n_20'], 'HELD_FOR_FUNDS');
  });

  it("fast path: another ledger's send changes the row (no room counted twice)", async () => {
    const a = counting();
    const b = counting();
    await reading('100.00');
    await pay('m_10', '10.00');
    await a.ledger.claimWithFunds(round({ room: room() }));
    await pay('m_50', '50.00');
    await b.ledger.claimWithFunds(round({ room: room() }));
    await pay('m_45', '45.00');
    // a remembers 90.00 of room; b has spent 50.00 of it since.
    const r = await a.ledger.claimWithFunds(round({ room: room() }));
    assert.deepEqual(r.sent, []);
    assert.ok(a.reads() > 1);
    assert.equal((await statuses())['m_45'], 'HELD_FOR_FUNDS');
  });

  it('fast path: a payout held meanwhile (by another ledger) goes first, so the round goes the full way', async () => {
    const a = counting();
    const b = counting();
    await reading('100.00');
    await pay('h_60', '60.00');
    await a.ledger.claimWithFunds(round({ room: room() }));
    await pay('h_50', '50.00');
    const heldByB = await b.ledger.claimWithFunds(round({ room: room() }));
    assert.equal(heldByB.held, 1);
    // The provider refuses h_60: its 60.00 is back (the row does not change), then a 30.00 comes.
    await answer('h_60', 'FAILED');
    await pay('h_30', '30.00');
    // a remembers 40.00 of room, in which 30.00 fits; but h_50 waits ahead of it, and fits now.
    const r = await a.ledger.claimWithFunds(round({ room: room() }));
    assert.deepEqual(
      r.sent.map((p) => p.transferId),
      ['h_50', 'h_30'],
    );
    assert.ok(a.reads() > 1, 'the full way read');
  });

  it('fast path: at most the free slots, the rest left for the next round (slot-bound)', async () => {
    const { ledger, reads } = counting();
    await reading('100.00');
    await pay('s_0', '1.00');
    await ledger.claimWithFunds(round({ room: room() }));
    for (let k = 1; k <= 4; k++) await pay(`s_${k}`, '1.00');
    const r = await ledger.claimWithFunds(round({ room: room(), slots: 3 }));
    assert.deepEqual(
      r.sent.map((p) => p.transferId),
      ['s_1', 's_2', 's_3'],
    );
    assert.equal(r.slotBound, true);
    assert.equal(reads(), 1);
    const next = await ledger.claimWithFunds(round({ room: room(), slots: 3 }));
    assert.deepEqual(
      next.sent.map((p) => p.transferId),
      ['s_4'],
    );
    assert.equal(next.slotBound, false);
    // Nothing waits: the fast path finds nothing and reads nothing.
    const none = await ledger.claimWithFunds(round({ room: room(), slots: 3 }));
    assert.deepEqual([none.sent.length, reads()], [0, 1]);
  });

  it('two claimers in two pools never spend the same room', async () => {
    const second = new PayoutLedger({
      pool: f.other,
      outbox: f.outbox,
      history: f.history,
      logger: capturingLogger('silent').logger,
    });
    const sending = async () =>
      (await f.pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM payout WHERE status = 'SUBMITTING'`))
        .rows[0]!.n;
    await reading('100.00');
    for (let k = 0; k < 6; k++) await pay(`t_${k}`, '30.00');
    // The first claimer is stopped inside its transaction, after deciding and at its send (a third
    // connection holds the history table, which the send statement writes); the second claimer
    // comes then, in another pool, reads the same room unspent and is stopped at its send too. Both
    // sends wait for the table, not yet for the reading row: when it is released they race for the
    // row, and either may win. Without the row's guard both would send what they planned (six).
    const blocker = await f.other.connect();
    try {
      await blocker.query('BEGIN');
      await blocker.query('LOCK TABLE state_history IN EXCLUSIVE MODE');
      const waiting = async () =>
        (
          await blocker.query<{ n: number }>(
            `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
          )
        ).rows[0]!.n;
      const first = f.ledger.claimWithFunds(round());
      for (let i = 0; (await waiting()) < 1; i++) {
        assert.ok(i < 200, 'the first claimer reached its moves');
        await new Promise((r) => setTimeout(r, 10));
      }
      let secondDone = false;
      const secondRound = second.claimWithFunds(round()).finally(() => (secondDone = true));
      for (let i = 0; !secondDone && (await waiting()) < 2 && i < 200; i++)
        await new Promise((r) => setTimeout(r, 10));
      await blocker.query('COMMIT');
      const [a, b] = await Promise.all([first, secondRound]);
      // The one that lost the race found the reading row changed at its send and decided again on
      // it: nothing more fits.
      assert.deepEqual(
        [a.sent.length, b.sent.length].sort(),
        [0, 3],
        'one claimer sent three; the other nothing of the room the first spent',
      );
      assert.equal(a.locked && b.locked, true, 'the loser read and decided again, within its tries');
    } finally {
      blocker.release();
    }
    assert.equal(await sending(), 3, 'three of 30.00 fit in 100.00, never more');
    // Afterwards each sees what the other sent after the reading: nothing more goes.
    await Promise.all([f.ledger.claimWithFunds(round()), second.claimWithFunds(round())]);
    assert.equal(await sending(), 3);
    // And rounds racing freely, on fresh payouts, never spend more than the room either.
    for (let i = 0; i < 5; i++) {
      await f.pool.query(
        'TRUNCATE payout, transfer_identity, balance_reading, outbox, state_history CASCADE',
      );
      await reading('100.00');
      for (let k = 0; k < 6; k++) await pay(`t${i}_${k}`, '30.00');
      await Promise.all([f.ledger.claimWithFunds(round()), second.claimWithFunds(round())]);
      await Promise.all([f.ledger.claimWithFunds(round()), second.claimWithFunds(round())]);
      assert.equal(await sending(), 3, `race ${i}`);
    }
  });

  it('batches are held or sent whole, on the same room as the payouts', async () => {
    await reading('250.00');
    await batch('b_big', ['100.00', '200.00']);
    await batch('b_fits', ['150.00', '50.00']);
    const r = await f.batchLedger.claimWithFunds(round());
    assert.deepEqual(
      r.sent.map((b) => b.batchTransferId),
      ['b_fits'],
    );
    assert.equal(r.held, 1);
    const { rows: b } = await f.pool.query<{
      batch_transfer_id: string;
      status: string;
      reason: string | null;
    }>(`SELECT batch_transfer_id, status, reason FROM batch ORDER BY created_at`);
    assert.deepEqual(
      b.map((x) => [x.batch_transfer_id, x.status, x.reason]),
      [
        ['b_big', 'HELD_FOR_FUNDS', 'insufficient_funds'],
        ['b_fits', 'SUBMITTING', null],
      ],
    );
    const { rows: items } = await f.pool.query<{ status: string }>(`SELECT DISTINCT status FROM batch_item`);
    assert.deepEqual(
      items.map((i) => i.status),
      ['RECEIVED'],
      'entries are not moved: the batch is held or sent whole',
    );
    const held = (await events()).filter((e) => e.type === 'payouts.batch.held_for_funds');
    assert.deepEqual(
      held.map((e) => [e.subject, e.reason]),
      [['b_big', 'insufficient_funds']],
    );
    // The batch sent after the reading is committed: a payout of 50.01 no longer fits, 50.00 does.
    await pay('bp_1', '50.01');
    await pay('bp_2', '50.00');
    const p = await f.ledger.claimWithFunds(round());
    assert.deepEqual(
      p.sent.map((x) => x.transferId),
      ['bp_2'],
    );
  });
});
