import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Registry } from 'prom-client';
import { type CommittedFunds } from '#ledger';
import { FundsGauges } from './funds.gauges.js';
import { type BalanceReading } from './funds/balance-readings.js';

const ROWS: CommittedFunds[] = [
  { accountId: 'b', stage: 'in_flight', count: 2, amount: '0.30' },
  { accountId: 'a', stage: 'queued', count: 1, amount: '0.10' },
  { accountId: 'a', stage: 'awaiting_approval', count: 2, amount: '0.20' },
  { accountId: 'a', stage: 'in_flight', count: 3, amount: '9007199254740.99' },
];

describe('the funds gauges', () => {
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
