import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { HeldAccounts } from './held-accounts.js';

describe('HeldAccounts (which held accounts a claim loop looks at)', () => {
  const port = { accountIds: ['b', 'a'], decide: () => () => [] };

  it('every account is due at start; looked at, it waits for a wake or an idle poll', () => {
    let now = 1_000;
    const h = new HeldAccounts(port, 200, () => now);
    assert.deepEqual(h.ids, ['a', 'b']);
    assert.deepEqual(h.due(), ['a', 'b']);
    h.looking('a');
    h.looked('a', false);
    assert.deepEqual(h.due(), ['b']);
    now += 199;
    assert.deepEqual(h.due(), ['b'], 'not again before an idle poll has passed');
    now += 1;
    assert.deepEqual(h.due(), ['a', 'b'], 'an idle poll later: due (a maximum hold ends without a reading)');
  });

  it('a wake makes it due at once; a wake of an account not held is refused', () => {
    const h = new HeldAccounts(port, 60_000, () => 0);
    for (const id of h.ids) {
      h.looking(id);
      h.looked(id, false);
    }
    assert.deepEqual(h.due(), []);
    assert.equal(h.wake('a'), true);
    assert.equal(h.wake('z'), false);
    assert.deepEqual(h.due(), ['a']);
    h.wakeAll();
    assert.deepEqual(h.due(), ['a', 'b']);
  });

  it('a round left slot-bound is due again at once; a wake during a round is kept', () => {
    const h = new HeldAccounts(port, 60_000, () => 0);
    h.looking('a');
    h.looked('a', true);
    h.looking('b');
    h.wake('b');
    h.looked('b', false);
    assert.deepEqual(h.due(), ['a', 'b']);
  });
});
