import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { HELD_LOOK_MIN_MS, HeldAccounts } from './held-accounts.js';

describe('HeldAccounts (which held accounts a claim loop looks at)', () => {
  const port = { accountIds: ['b', 'a'], decide: () => () => [], room: () => () => null, fee: () => 0n };
  /** A round that found room for all it looked at. */
  const done = { locked: true, slotBound: false, short: false };

  it('every account is due at start; looked at, it waits for a wake or an idle poll', () => {
    let now = 1_000;
    const h = new HeldAccounts(port, 2_000, () => now);
    assert.deepEqual(h.ids, ['a', 'b']);
    assert.deepEqual(h.due(), ['a', 'b']);
    h.looking('a');
    h.looked('a', done);
    assert.deepEqual(h.due(), ['b']);
    now += 1_999;
    assert.deepEqual(h.due(), ['b'], 'not again before an idle poll has passed');
    now += 1;
    assert.deepEqual(h.due(), ['a', 'b'], 'an idle poll later: due (a maximum hold ends without a reading)');
  });

  it('a short idle poll does not make the look more often than HELD_LOOK_MIN_MS', () => {
    let now = 0;
    const h = new HeldAccounts(port, 50, () => now);
    h.looking('a');
    h.looked('a', done);
    now = HELD_LOOK_MIN_MS - 1;
    assert.deepEqual(h.due(), ['b']);
    now = HELD_LOOK_MIN_MS;
    assert.deepEqual(h.due(), ['a', 'b']);
  });

  it("a reading's wake makes it due at once; a wake of an account not held is refused", () => {
    const h = new HeldAccounts(port, 60_000, () => 0);
    for (const id of h.ids) {
      h.looking(id);
      h.looked(id, done);
    }
    assert.deepEqual(h.due(), []);
    assert.equal(h.wake('a'), true);
    assert.equal(h.wake('z'), false);
    assert.deepEqual(h.due(), ['a']);
  });

  it("the loop's wake (new payouts of any account) makes them due once an idle poll old", () => {
    let now = 0;
    const h = new HeldAccounts(port, 200, () => now);
    for (const id of h.ids) {
      h.looking(id);
      h.looked(id, done);
    }
    h.wakeAll();
    now = 199;
    assert.deepEqual(h.due(), [], 'a burst of intake commits: not a round each');
    now = 200;
    assert.deepEqual(h.due(), ['a', 'b']);
    h.looking('a');
    h.looked('a', done);
    now = 500;
    assert.deepEqual(h.due(), ['b'], 'a look answers the wake');
  });

  it('a round left slot-bound is due again at once; a wake during a round is kept', () => {
    const h = new HeldAccounts(port, 60_000, () => 0);
    h.looking('a');
    h.looked('a', { ...done, slotBound: true });
    h.looking('b');
    h.wake('b');
    h.looked('b', done);
    assert.deepEqual(h.due(), ['a', 'b']);
  });

  it("an account's own new payouts: due at once while it has room, after an idle poll once it ran short", () => {
    let now = 0;
    const h = new HeldAccounts(port, 200, () => now);
    for (const id of h.ids) {
      h.looking(id);
      h.looked(id, done);
    }
    h.arrived(['a', 'z']);
    assert.deepEqual(
      h.due(),
      ['a'],
      'room for all it saw: claimed as promptly as any account; z is not held',
    );
    h.looking('a');
    h.looked('a', { ...done, short: true });
    h.arrived(['a']);
    now = 199;
    assert.deepEqual(h.due(), [], 'holding payouts: a burst of its commits is not a round each');
    now = 200;
    assert.deepEqual(h.due(), ['a']);
    h.looking('a');
    h.looked('a', { ...done, locked: false });
    h.arrived(['a']);
    assert.deepEqual(h.due(), [], 'a skipped round (another held the lock) leaves it short');
    now = 400;
    h.looking('a');
    h.looked('a', done);
    h.arrived(['a']);
    assert.deepEqual(h.due(), ['a'], 'room again: at once');
  });
});
