import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { planFundsMoves } from './funds-claim.js';

describe('planFundsMoves (verdicts to moves)', () => {
  const c = (id: string, held = false) => ({ id, held });
  const plan = (
    cands: Array<{ id: string; held: boolean }>,
    verdicts: Parameters<typeof planFundsMoves>[1],
    slots = 10,
  ) =>
    planFundsMoves(
      cands,
      verdicts,
      slots,
      (x) => x.id,
      (x) => x.held,
    );

  it('holds only what is not held yet; rejects; sends', () => {
    const p = plan(
      [c('a'), c('b', true), c('c'), c('d', true)],
      [
        { id: 'a', verdict: 'send' },
        { id: 'b', verdict: 'hold', reason: 'insufficient_funds' },
        { id: 'c', verdict: 'hold', reason: 'insufficient_funds' },
        { id: 'd', verdict: 'reject', reason: 'funds_hold_expired', detail: 'x' },
      ],
    );
    assert.deepEqual(
      p.send.map((x) => x.id),
      ['a'],
    );
    assert.deepEqual(
      p.hold.map((x) => x.candidate.id),
      ['c'],
    );
    assert.deepEqual(
      p.reject.map((x) => x.candidate.id),
      ['d'],
    );
    assert.equal(p.slotBound, false);
  });

  it('stops at the first fit beyond the slots: what follows was decided as if it were sent', () => {
    const p = plan(
      [c('a'), c('b'), c('c'), c('d')],
      [
        { id: 'a', verdict: 'send' },
        { id: 'b', verdict: 'hold', reason: 'insufficient_funds' },
        { id: 'c', verdict: 'send' },
        { id: 'd', verdict: 'hold', reason: 'insufficient_funds' },
      ],
      1,
    );
    assert.deepEqual(
      p.send.map((x) => x.id),
      ['a'],
    );
    assert.deepEqual(
      p.hold.map((x) => x.candidate.id),
      ['b'],
      'd is left: it might fit without c',
    );
    assert.equal(p.slotBound, true);
  });

  it('refuses verdicts that do not match the candidates one to one', () => {
    assert.throws(() => plan([c('a'), c('b')], [{ id: 'a', verdict: 'send' }]), /one verdict per candidate/);
    assert.throws(() => plan([c('a')], [{ id: 'z', verdict: 'send' }]), /no verdict/);
  });
});
