import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { type PayoutStatus } from '#contracts';
import { canMove, contradictionOf, isNegative } from './state-machine.js';

const ALL: readonly PayoutStatus[] = [
  'RECEIVED',
  'SUBMITTING',
  'PENDING',
  'UNKNOWN',
  'SUCCESS',
  'FAILED',
  'REJECTED',
  'REVERSED',
  'REQUIRES_ATTENTION',
];

/*
 * Written from ADR 0018 and issue 29, not read back from the code: upstream re-pays after FAILED,
 * REJECTED and REVERSED, so a provider that now holds such a payout as paid or pending contradicts
 * it; a SUCCESS the provider now holds as FAILED or REJECTED is contradicted too. Nothing else is.
 */
const EXPECTED: ReadonlyArray<[PayoutStatus, PayoutStatus, string]> = [
  ['FAILED', 'SUCCESS', 'paid_after_failure'],
  ['FAILED', 'PENDING', 'pending_after_failure'],
  ['REJECTED', 'SUCCESS', 'paid_after_failure'],
  ['REJECTED', 'PENDING', 'pending_after_failure'],
  ['REVERSED', 'SUCCESS', 'paid_after_failure'],
  ['REVERSED', 'PENDING', 'pending_after_failure'],
  ['SUCCESS', 'FAILED', 'failed_after_success'],
  ['SUCCESS', 'REJECTED', 'failed_after_success'],
];

describe('contradictionOf (ADR 0018, issue 29)', () => {
  it('names exactly the pairs that contradict a published state, REVERSED included', () => {
    for (const published of ALL) {
      for (const observed of ALL) {
        const want = EXPECTED.find(([p, o]) => p === published && o === observed)?.[2];
        assert.equal(contradictionOf(published, observed), want, `${published} then ${observed}`);
      }
    }
  });

  it('the negative states are the three upstream re-pays after', () => {
    assert.deepEqual(
      ALL.filter((s) => isNegative(s)),
      ['FAILED', 'REJECTED', 'REVERSED'],
    );
  });
});

describe('the hold for funds moves (ADR 0027)', () => {
  // Written from the ADR: only a payout not yet sent (RECEIVED) is held; a held one is either sent
  // (SUBMITTING) or, past its maximum hold, REJECTED; nothing else enters or leaves the state.
  const STATUSES: readonly PayoutStatus[] = [...ALL, 'AWAITING_APPROVAL', 'HELD_FOR_FUNDS'];
  it('enters HELD_FOR_FUNDS only from RECEIVED', () => {
    for (const from of STATUSES)
      assert.equal(canMove(from, 'HELD_FOR_FUNDS'), from === 'RECEIVED', `${from} -> HELD_FOR_FUNDS`);
  });
  it('leaves HELD_FOR_FUNDS only to SUBMITTING or REJECTED', () => {
    for (const to of STATUSES)
      assert.equal(
        canMove('HELD_FOR_FUNDS', to),
        to === 'SUBMITTING' || to === 'REJECTED',
        `HELD_FOR_FUNDS -> ${to}`,
      );
  });
});
