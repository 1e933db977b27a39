import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { type CommittedFunds } from '#ledger';
import { fundsByAccount, FundsView } from './funds-view.js';

const ROWS: CommittedFunds[] = [
  { accountId: 'b', stage: 'in_flight', count: 2, amount: '0.30' },
  { accountId: 'a', stage: 'queued', count: 1, amount: '0.10' },
  { accountId: 'a', stage: 'awaiting_approval', count: 2, amount: '0.20' },
  { accountId: 'a', stage: 'in_flight', count: 3, amount: '9007199254740.99' },
];

describe('the funds view', () => {
  it('one entry per account, configured ones with zeros, others after them by name; waiting = queued + awaiting approval, exact', () => {
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
      waiting: { count: 0, amount: '0.00' },
    });
  });

  it('adds the balance reading of each account, null where none is known', async () => {
    const readAt = new Date('2026-11-27T10:00:00Z');
    const view = new FundsView({
      pool: undefined as never,
      funds: { committed: () => Promise.resolve(ROWS) },
      accountIds: ['a'],
      balances: { latest: (id) => Promise.resolve(id === 'a' ? { available: '12.34', readAt } : null) },
    });
    const got = await view.read();
    assert.deepEqual(got[0]!.balance, { available: '12.34', readAt });
    assert.equal(got[1]!.balance, null);
  });
});
