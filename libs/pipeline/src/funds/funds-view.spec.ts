import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Registry } from 'prom-client';
import { type CommittedFunds } from '#ledger';
import { FundsGauges } from '../funds.gauges.js';
import { type BalanceReading } from './balance-readings.js';
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

  it('the gauges: paise per account and stage, counts, and the available balance only where read', async () => {
    const registry = new Registry();
    const readings = new Map<string, BalanceReading | null>([
      ['a', { available: '-5.01', readAt: new Date() }],
      ['c', null],
    ]);
    new FundsGauges(registry, {
      committed: () => Promise.resolve(ROWS),
      accountIds: ['a', 'c'],
      balance: (id) => Promise.resolve(readings.get(id) ?? null),
    });
    const text = await registry.metrics();
    assert.match(text, /^payouts_funds_amount_paise\{account="a",stage="in_flight"\} 900719925474099$/m);
    assert.match(text, /^payouts_funds_amount_paise\{account="a",stage="awaiting_approval"\} 20$/m);
    assert.match(text, /^payouts_funds_amount_paise\{account="c",stage="queued"\} 0$/m);
    assert.match(text, /^payouts_funds_payouts\{account="b",stage="in_flight"\} 2$/m);
    assert.match(text, /^payouts_funds_available_paise\{account="a"\} -501$/m);
    assert.doesNotMatch(text, /payouts_funds_available_paise\{account="c"\}/);
  });
});
