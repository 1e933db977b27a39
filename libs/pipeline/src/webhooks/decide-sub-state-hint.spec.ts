import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { payoutRow } from '#test-support';
import { type HintContext } from './decide-hint.js';
import { decideSubStateHint } from './decide-sub-state-hint.js';

const V2: HintContext = { apiVersion: 'v2', checkable: true, reopenAllowed: true };
const pending = payoutRow({
  status: 'PENDING',
  subState: 'approval_pending',
  referenceId: '42',
  amount: '10.00',
});

describe('a webhook announcing approval is a sub-state change, never a status', () => {
  it('a PENDING payout it is bound to becomes PENDING approved', () => {
    assert.deepEqual(decideSubStateHint(pending, 'approved', { amount: '10.00', referenceId: '42' }, V2), {
      do: 'sub-state',
      subState: 'approved',
    });
  });

  it('the same sub-state again is nothing', () => {
    assert.deepEqual(decideSubStateHint({ ...pending, subState: 'approved' }, 'approved', {}, V2), {
      do: 'nothing',
      why: 'same_state',
    });
  });

  it('not bound (amount, ids, v1): the provider is asked instead', () => {
    assert.deepEqual(decideSubStateHint(pending, 'approved', { amount: '11.00' }, V2), {
      do: 'recheck',
      why: 'amount_mismatch',
    });
    assert.deepEqual(decideSubStateHint(pending, 'approved', { referenceId: '43' }, V2), {
      do: 'recheck',
      why: 'reference_mismatch',
    });
    assert.deepEqual(decideSubStateHint(pending, 'approved', {}, { ...V2, apiVersion: 'v1' }), {
      do: 'recheck',
      why: 'v1_unbound',
    });
  });

  it("a person's payout is reopened (within the limit); a settled one is left alone; an early one waits", () => {
    const ra = { ...pending, status: 'REQUIRES_ATTENTION' as const, reason: 'approval_pending_too_long' };
    assert.deepEqual(decideSubStateHint(ra, 'approved', {}, V2), { do: 'reopen' });
    assert.deepEqual(decideSubStateHint(ra, 'approved', {}, { ...V2, reopenAllowed: false }), {
      do: 'nothing',
      why: 'reopen_limited',
    });
    for (const status of ['SUCCESS', 'FAILED', 'REJECTED', 'REVERSED'] as const) {
      assert.equal(decideSubStateHint({ ...pending, status }, 'approved', {}, V2).do, 'nothing');
    }
    assert.deepEqual(decideSubStateHint({ ...pending, status: 'SUBMITTING' }, 'approved', {}, V2), {
      do: 'wait',
    });
    assert.deepEqual(decideSubStateHint({ ...pending, status: 'UNKNOWN' }, 'approved', {}, V2), {
      do: 'recheck',
      why: 'unclear_row',
    });
  });
});
