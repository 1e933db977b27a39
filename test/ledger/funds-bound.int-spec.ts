import { afterEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type pg from 'pg';
import fc from 'fast-check';
import { canMove, PayoutRepository } from '#ledger';
import { type PayoutStatus } from '#contracts';
import { ACC, fundsFixture } from './funds-fixture.js';

/*
 * The funds round's bound (ADR 0027, migration 1764693000000) on real Postgres. A round first
 * reads the committed sum bounded from the reading's row (what the rounds sent since the reading
 * was asked, plus what was in doubt then) instead of adding up every payout taken since the
 * reading; it decides the round with it only when everything it looked at fits, and otherwise
 * reads the exact sum. The bound must never be less than the exact sum, whatever the order of
 * sends, answers, given-back money and readings: else a round would send what the provider must
 * refuse.
 */

/** The spies' undoing, run after each test: the pool's listener removed, its clients' queries restored. */
const spies: Array<() => void> = [];

/** Which committed sum each funds-round read of this pool asked for (until the test ends). */
function spyRounds(pool: pg.Pool): { bound: number; exact: number } {
  const seen = { bound: 0, exact: 0 };
  type Queryable = { query: (...a: unknown[]) => unknown };
  const wrapped = new Map<Queryable, Queryable['query']>();
  const onAcquire = (client: pg.PoolClient) => {
    const c = client as unknown as Queryable;
    if (wrapped.has(c)) return;
    const query = c.query;
    wrapped.set(c, query);
    c.query = (...a: unknown[]) => {
      const first = a[0];
      const text = typeof first === 'string' ? first : ((first as { text?: string } | undefined)?.text ?? '');
      if (text.includes('WITH facts AS MATERIALIZED')) {
        if (text.includes('r.ask_sent_total')) seen.bound++;
        else if (text.includes('taken_at > r.read_at')) seen.exact++;
      }
      return query.apply(c, a);
    };
  };
  pool.on('acquire', onAcquire);
  spies.push(() => {
    pool.off('acquire', onAcquire);
    for (const [c, query] of wrapped) c.query = query;
  });
  return seen;
}

describe("the funds round's bound (real Postgres)", () => {
  const { f, round, pay, batch, reading, answer, answerBatch, committed } = fundsFixture();
  afterEach(() => {
    for (const undo of spies.splice(0)) undo();
  });

  const status = async (transferId: string): Promise<string | undefined> =>
    (await new PayoutRepository().findOne(f.pool, ACC, transferId))?.status;

  it('an account with room is decided from the bound alone: no payout taken since the reading is added up', async () => {
    const seen = spyRounds(f.pool);
    await reading('1000.00');
    for (let i = 0; i < 5; i++) await pay(`r_${i}`, '10.00');
    assert.equal((await f.ledger.claimWithFunds(round())).sent.length, 5);
    for (let i = 0; i < 5; i++) await answer(`r_${i}`, 'PENDING');
    for (let i = 5; i < 10; i++) await pay(`r_${i}`, '10.00');
    assert.equal((await f.ledger.claimWithFunds(round())).sent.length, 5);
    assert.deepEqual(seen, { bound: 2, exact: 0 });
    // 50.00 taken after the reading and 50.00 in doubt: the bound is the exact sum here.
    assert.equal(await committed(), 100_00n);
    assert.equal((await f.reads.bound(f.pool, ACC))?.committed, 100_00n);
  });

  it('a bound too large (money given back since the reading) gives way to the exact sum, which sends what fits', async () => {
    const seen = spyRounds(f.pool);
    await reading('1000.00');
    await pay('g_600', '600.00');
    assert.equal((await f.ledger.claimWithFunds(round())).sent.length, 1);
    await answer('g_600', 'FAILED');
    await pay('g_700', '700.00');
    // Bound: 600.00 sent since the reading, so 400.00 of room; exact: nothing committed.
    assert.equal((await f.reads.bound(f.pool, ACC))?.committed, 600_00n);
    assert.equal(await committed(), 0n);
    const r = await f.ledger.claimWithFunds(round());
    assert.deepEqual(
      r.sent.map((p) => p.transferId),
      ['g_700'],
    );
    assert.equal(r.held, 0);
    assert.ok(seen.exact >= 1, 'the exact sum was read');
    // Another beyond the room is held, on the exact sum (700.00 of 1,000.00 committed).
    await pay('g_400', '400.00');
    assert.equal((await f.ledger.claimWithFunds(round())).held, 1);
    assert.equal(await status('g_400'), 'HELD_FOR_FUNDS');
  });

  it("a send that commits after the reading was asked is in the bound (the round's transaction open at the ask)", async () => {
    await reading('1000.00');
    await pay('o_1', '100.00');
    const row = await new PayoutRepository().findOne(f.pool, ACC, 'o_1');
    assert.ok(row);
    const c = await f.other.connect();
    try {
      await c.query('BEGIN');
      const guard = await f.reads.guard(f.pool, ACC);
      assert.ok(guard);
      assert.equal((await f.moves.sendFunded(c, ACC, 'w', 60_000, [row], guard, 0n)).rows.length, 1);
      // The reader asks while the send is not committed: it sees neither the send nor its total.
      const ask = await f.readings.ask(f.pool, ACC);
      assert.deepEqual(ask.figures, { sentTotal: '0.00', inDoubt: '0' });
      await c.query('COMMIT');
      await f.readings.record(f.pool, ACC, '1000.00', '1000.00', ask);
    } finally {
      c.release();
    }
    assert.equal((await f.reads.bound(f.pool, ACC))?.committed, 100_00n);
    assert.equal(await committed(), 100_00n);
    await pay('o_2', '900.01');
    assert.equal((await f.ledger.claimWithFunds(round())).held, 1, '1,000.00 - 100.00 leaves 900.00');
  });

  it('batches count in the bound by their totals, sent by their own rounds', async () => {
    await reading('1000.00');
    await batch('bb_1', ['100.00', '200.00']);
    assert.equal((await f.batchLedger.claimWithFunds(round())).sent.length, 1);
    assert.equal((await f.reads.bound(f.pool, ACC))?.committed, 300_00n);
    await answerBatch('bb_1', 'PROCESSING');
    assert.equal(await committed(), 300_00n);
    await pay('bp_1', '700.01');
    assert.equal((await f.ledger.claimWithFunds(round())).held, 1);
  });

  it('is never less than the exact sum, whatever the order of sends, answers, given-back money and readings', async () => {
    type Op =
      | { op: 'pay'; rupees: number }
      | { op: 'batch'; rupees: number }
      | { op: 'round'; slots: number }
      | { op: 'batchRound' }
      | { op: 'answer'; pick: number; to: PayoutStatus }
      | { op: 'answerBatch'; pick: number; to: 'PROCESSING' | 'FAILED' | 'COMPLETED' }
      | { op: 'reading'; rupees: number }
      | { op: 'readingDuringSend'; rupees: number };
    const op: fc.Arbitrary<Op> = fc.oneof(
      fc.record({ op: fc.constant('pay' as const), rupees: fc.integer({ min: 1, max: 400 }) }),
      fc.record({ op: fc.constant('batch' as const), rupees: fc.integer({ min: 1, max: 400 }) }),
      fc.record({ op: fc.constant('round' as const), slots: fc.integer({ min: 1, max: 4 }) }),
      fc.record({ op: fc.constant('batchRound' as const) }),
      fc.record({
        op: fc.constant('answer' as const),
        pick: fc.nat(),
        to: fc.constantFrom<PayoutStatus>('PENDING', 'SUCCESS', 'UNKNOWN', 'FAILED', 'REVERSED'),
      }),
      fc.record({
        op: fc.constant('answerBatch' as const),
        pick: fc.nat(),
        to: fc.constantFrom('PROCESSING' as const, 'FAILED' as const, 'COMPLETED' as const),
      }),
      fc.record({ op: fc.constant('reading' as const), rupees: fc.integer({ min: 0, max: 2000 }) }),
      fc.record({ op: fc.constant('readingDuringSend' as const), rupees: fc.integer({ min: 0, max: 2000 }) }),
    );
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 4, maxLength: 24 }), async (ops) => {
        run++;
        await f.pool.query(
          'TRUNCATE payout, batch, batch_item, transfer_identity, balance_reading, outbox, state_history CASCADE',
        );
        await reading('1000.00');
        let n = 0;
        for (const o of ops) {
          const id = `p${run}_${n++}`;
          if (o.op === 'pay') await pay(id, `${o.rupees}.00`);
          else if (o.op === 'batch') await batch(id, [`${o.rupees}.00`]);
          else if (o.op === 'round') await f.ledger.claimWithFunds(round({ slots: o.slots }));
          else if (o.op === 'batchRound') await f.batchLedger.claimWithFunds(round({ slots: 1 }));
          else if (o.op === 'reading') await reading(`${o.rupees}.00`);
          else if (o.op === 'answer') {
            const { rows } = await f.pool.query<{ transfer_id: string; status: PayoutStatus }>(
              `SELECT transfer_id, status FROM payout WHERE sent_at IS NOT NULL ORDER BY id`,
            );
            const p = rows[o.pick % Math.max(rows.length, 1)];
            if (p && canMove(p.status, o.to) && p.status !== o.to)
              await answer(p.transfer_id, o.to as 'PENDING' | 'SUCCESS' | 'UNKNOWN' | 'FAILED');
          } else if (o.op === 'answerBatch') {
            const { rows } = await f.pool.query<{ batch_transfer_id: string; status: string }>(
              `SELECT batch_transfer_id, status FROM batch WHERE sent_at IS NOT NULL ORDER BY id`,
            );
            const b = rows[o.pick % Math.max(rows.length, 1)];
            const legal: Record<string, readonly string[]> = {
              SUBMITTING: ['PROCESSING', 'COMPLETED', 'FAILED'],
              PROCESSING: ['COMPLETED'],
            };
            if (b && legal[b.status]?.includes(o.to)) await answerBatch(b.batch_transfer_id, o.to);
          } else {
            // A reading asked while a round's send is in its transaction, answered after it commits.
            const next = await f.pool.query<{ id: string; version: number; status: string }>(
              `SELECT id::text, version, status FROM payout WHERE status = 'RECEIVED' AND account_id = $1
                ORDER BY created_at LIMIT 1`,
              [ACC],
            );
            const c = await f.other.connect();
            try {
              await c.query('BEGIN');
              const row = next.rows[0];
              const guard = await f.reads.guard(f.pool, ACC);
              if (row && guard) await f.moves.sendFunded(c, ACC, 'w', 60_000, [row as never], guard, 0n);
              const ask = await f.readings.ask(f.pool, ACC);
              await c.query('COMMIT');
              await f.readings.record(f.pool, ACC, `${o.rupees}.00`, `${o.rupees}.00`, ask);
            } finally {
              c.release();
            }
          }
          await committed();
        }
      }),
      { numRuns: 30 },
    );
  });
});
