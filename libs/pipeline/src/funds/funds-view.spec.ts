import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { type CommittedFunds } from '#ledger';
import { fundsByAccount, FundsView } from './funds-view.js';

const ROWS: CommittedFunds[] = [
  { accountId: 'b', stage: 'in_flight', count: 2, amount: '0.30', heldSince: null },
  { accountId: 'a', stage: 'queued', count: 1, amount: '0.10', heldSince: null },
  { accountId: 'a', stage: 'awaiting_approval', count: 2, amount: '0.20', heldSince: null },
  { accountId: 'a', stage: 'in_flight', count: 3, amount: '9007199254740.99', heldSince: null },
];

const T1 = new Date('2026-11-27T08:00:00Z');
const T2 = new Date('2026-11-27T09:30:00Z');

describe('the funds view', () => {
  it('one entry per account, configured ones with zeros, others after them by name; waiting = queued + awaiting approval + held, exact', () => {
    const got = fundsByAccount(ROWS, ['c', 'a']);
    assert.deepEqual(
      got.map((a) => a.accountId),
      ['a', 'b', 'c'],
    );
    const a = got[0]!;
    assert.deepEqual(a.waiting, { count: 3, amount: '0.30' }, '0.1 + 0.2, never 0.30000000000000004');
    assert.deepEqual(a.inFlight, { count: 3, amount: '9007199254740.99' });
    assert.deepEqual(got[2], {
      accountId: 'c',
      inFlight: { count: 0, amount: '0.00' },
      queued: { count: 0, amount: '0.00' },
      awaitingApproval: { count: 0, amount: '0.00' },
      heldForFunds: { count: 0, amount: '0.00', oldestSince: null },
      waiting: { count: 0, amount: '0.00' },
      hold: null,
    });
  });

  it('held for funds: counted as waiting, its oldest held_since kept (the earliest of payouts and batches), and the hold settings of accounts that hold', () => {
    const rows: CommittedFunds[] = [
      ...ROWS,
      { accountId: 'a', stage: 'held_for_funds', count: 2, amount: '0.70', heldSince: T2 },
      // A second row of the same stage (as payouts and batches could give): summed, earliest kept.
      { accountId: 'a', stage: 'held_for_funds', count: 500, amount: '5000.00', heldSince: T1 },
      { accountId: 'b', stage: 'held_for_funds', count: 1, amount: '1.00', heldSince: T2 },
    ];
    const holds = new Map([['a', { thresholdPaise: 500_000n, feePaise: 0n, maxHoldMs: 96 * 3_600_000 }]]);
    const [a, b] = fundsByAccount(rows, ['a'], holds);
    assert.deepEqual(a!.heldForFunds, { count: 502, amount: '5000.70', oldestSince: T1 });
    assert.deepEqual(a!.waiting, { count: 505, amount: '5001.00' });
    assert.deepEqual(a!.hold, { threshold: '5000.00', fee: '0.00', maxHoldMs: 345_600_000 });
    // Held with holding off (turned off while some were held): shown, and no settings.
    assert.deepEqual(b!.heldForFunds, { count: 1, amount: '1.00', oldestSince: T2 });
    assert.equal(b!.hold, null);
  });

  it('adds the balance reading of each account, null where none is known', async () => {
    const readAt = new Date('2026-11-27T10:00:00Z');
    const view = new FundsView({
      pool: undefined as never,
      funds: { committed: () => Promise.resolve(ROWS), held: () => Promise.resolve([]) },
      accountIds: ['a'],
      balances: { latest: (id) => Promise.resolve(id === 'a' ? { available: '12.34', readAt } : null) },
      holds: new Map(),
    });
    const got = await view.read();
    assert.deepEqual(got[0]!.balance, { available: '12.34', readAt });
    assert.equal(got[1]!.balance, null);
  });
});
