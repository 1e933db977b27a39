import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  decideFundsHold,
  type FundsCandidate,
  type FundsFacts,
  fundsRoom,
  fundsRoomPaise,
  type SentFact,
  unreflected,
} from './decide-funds-hold.js';

const T0 = new Date('2026-11-28T00:00:00Z');
const at = (ms: number) => new Date(T0.getTime() + ms);
const H = 3_600_000;

const facts = (f: Partial<FundsFacts> = {}): FundsFacts => ({
  reading: { available: 10_000n, readAt: T0 },
  committed: 0n,
  threshold: 0n,
  maxHoldMs: 96 * H,
  now: at(60_000),
  ...f,
});
const c = (id: string, amount: bigint, heldSince?: Date): FundsCandidate => ({
  id,
  amount,
  ...(heldSince ? { heldSince } : {}),
});
const verdicts = (v: ReturnType<typeof decideFundsHold>) => v.map((x) => `${x.id}:${x.verdict}`);

describe('unreflected: what the reading may not include', () => {
  const taken = (amount: bigint, ms: number, returned = false): SentFact => ({
    amount,
    takenAt: at(ms),
    returned,
  });
  const inDoubt = (amount: bigint, returned = false): SentFact => ({ amount, takenAt: null, returned });

  it('counts what the provider answered it took after the reading was asked, once each', () => {
    assert.equal(unreflected([taken(100n, 1), taken(200n, 5_000)], T0), 300n);
  });

  it('does not count what the provider answered it took at or before the reading was asked', () => {
    assert.equal(unreflected([taken(100n, 0), taken(200n, -1)], T0), 0n);
  });

  it('always counts what was sent and not answered, whatever the times (in doubt)', () => {
    // Sent long before the reading was asked, its call may still have reached the provider after.
    assert.equal(unreflected([inDoubt(100n), inDoubt(20n)], T0), 120n);
    assert.equal(unreflected([inDoubt(100n)], at(-3_600_000)), 100n);
  });

  it('never counts what the provider gave back or never took (returned)', () => {
    assert.equal(unreflected([taken(100n, 1, true), inDoubt(50n, true), taken(7n, 2)], T0), 7n);
  });

  it('nothing sent: nothing counted', () => {
    assert.equal(unreflected([], T0), 0n);
  });
});

describe('decideFundsHold', () => {
  it('sends what fits, first in first out, and holds the rest', () => {
    const v = decideFundsHold([c('a', 4_000n), c('b', 4_000n), c('c', 4_000n)], facts());
    assert.deepEqual(verdicts(v), ['a:send', 'b:send', 'c:hold']);
    assert.deepEqual(v[2], { id: 'c', verdict: 'hold', reason: 'insufficient_funds' });
  });

  it('skips to a later payout that fits when an earlier one does not', () => {
    const v = decideFundsHold(
      [c('big', 9_000n), c('small', 1_000n), c('mid', 5_000n)],
      facts({ committed: 3_000n }),
    );
    // room 7000: big does not fit, small does (room 6000), mid does (room 1000)
    assert.deepEqual(verdicts(v), ['big:hold', 'small:send', 'mid:send']);
  });

  it('an amount equal to the room fits; one paisa more does not', () => {
    assert.deepEqual(verdicts(decideFundsHold([c('a', 10_000n)], facts())), ['a:send']);
    assert.deepEqual(verdicts(decideFundsHold([c('a', 10_001n)], facts())), ['a:hold']);
  });

  it('takes the committed sum and the threshold from the available balance', () => {
    const f = facts({ committed: 2_000n, threshold: 3_000n });
    assert.equal(fundsRoom(f), '50.00');
    assert.deepEqual(verdicts(decideFundsHold([c('a', 5_001n), c('b', 5_000n)], f)), ['a:hold', 'b:send']);
  });

  it('a room below zero holds everything', () => {
    const f = facts({ committed: 12_000n });
    assert.equal(fundsRoom(f), '-20.00');
    assert.deepEqual(verdicts(decideFundsHold([c('a', 1n)], f)), ['a:hold']);
  });

  it('no reading: nothing is sent blind, every candidate waits for the first reading', () => {
    const v = decideFundsHold([c('a', 1n)], facts({ reading: null }));
    assert.deepEqual(v, [{ id: 'a', verdict: 'hold', reason: 'no_balance_reading' }]);
    assert.equal(fundsRoom(facts({ reading: null })), null);
  });

  it('rejects what waited for the maximum hold, naming it; one millisecond less still waits', () => {
    const f = facts({ now: at(96 * H) });
    const v = decideFundsHold([c('old', 20_000n, T0), c('young', 20_000n, at(1))], f);
    assert.deepEqual(v[0], {
      id: 'old',
      verdict: 'reject',
      reason: 'funds_hold_expired',
      detail: 'held for funds longer than the maximum hold of 96h',
    });
    assert.deepEqual(verdicts(v), ['old:reject', 'young:hold']);
  });

  it('one that fits is sent even past the maximum hold (the funds came in time for this round)', () => {
    const v = decideFundsHold([c('old', 1_000n, T0)], facts({ now: at(200 * H) }));
    assert.deepEqual(verdicts(v), ['old:send']);
  });

  it('the maximum hold applies without a reading too', () => {
    const v = decideFundsHold([c('old', 1n, T0)], facts({ reading: null, now: at(96 * H) }));
    assert.deepEqual(verdicts(v), ['old:reject']);
  });

  it('a rejected or held candidate takes nothing from the room', () => {
    const f = facts({ now: at(96 * H) });
    const v = decideFundsHold([c('old', 50_000n, T0), c('a', 10_000n)], f);
    assert.deepEqual(verdicts(v), ['old:reject', 'a:send']);
  });
});

// The ledger's fast path (FundsClaimRound.room) sends the oldest new payouts while their running
// total is within fundsRoomPaise of the facts, and goes the full way at the first that does not
// fit: that must be exactly what the rule sends of them, up to the first it holds.
describe('fundsRoomPaise: the room the fast path spends', () => {
  it('the rule sends candidates never held exactly while their running total is within the room', () => {
    fc.assert(
      fc.property(
        fc.option(fc.bigInt({ min: 0n, max: 1_000_000n }), { nil: null }),
        fc.bigInt({ min: 0n, max: 500_000n }),
        fc.bigInt({ min: 0n, max: 100_000n }),
        fc.array(fc.bigInt({ min: 1n, max: 300_000n }), { maxLength: 20 }),
        (available, committed, threshold, amounts) => {
          const f = facts({
            reading: available === null ? null : { available, readAt: T0 },
            committed,
            threshold,
          });
          const room = fundsRoomPaise(f);
          const v = decideFundsHold(
            amounts.map((a, i) => c(`p${i}`, a)),
            f,
          );
          // The prefix the fast path would send.
          let run = 0n;
          let prefix = 0;
          if (room !== null)
            for (const a of amounts) {
              if (run + a > room) break;
              run += a;
              prefix++;
            }
          const firstHold = v.findIndex((x) => x.verdict !== 'send');
          assert.equal(firstHold === -1 ? v.length : firstHold, prefix);
          assert.equal(
            room === null ? null : room,
            f.reading === null ? null : f.reading.available - committed - threshold,
          );
        },
      ),
      { numRuns: 500 },
    );
  });
});
