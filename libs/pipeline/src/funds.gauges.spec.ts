import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Registry } from 'prom-client';
import { type CommittedFunds } from '#ledger';
import { FundsGauges } from './funds.gauges.js';
import { FundsAlertGauges } from './funds-alerts.gauges.js';
import { type BalanceReading } from './funds/balance-readings.js';

const NOW = Date.parse('2026-11-27T12:00:00Z');

const ROWS: CommittedFunds[] = [
  { accountId: 'b', stage: 'in_flight', count: 2, amount: '0.30', heldSince: null },
  { accountId: 'a', stage: 'queued', count: 1, amount: '0.10', heldSince: null },
  { accountId: 'a', stage: 'awaiting_approval', count: 2, amount: '0.20', heldSince: null },
  { accountId: 'a', stage: 'in_flight', count: 3, amount: '9007199254740.99', heldSince: null },
  // Held 90 minutes and 10 minutes: the older counts.
  {
    accountId: 'a',
    stage: 'held_for_funds',
    count: 4,
    amount: '1234.56',
    heldSince: new Date(NOW - 10 * 60_000),
  },
  {
    accountId: 'a',
    stage: 'held_for_funds',
    count: 1,
    amount: '0.01',
    heldSince: new Date(NOW - 90 * 60_000),
  },
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

  it('held for funds: a stage of the amount and count gauges, and the oldest held age per account (0 when none)', async () => {
    const registry = new Registry();
    let now = NOW;
    new FundsGauges(
      registry,
      {
        committed: () => Promise.resolve(ROWS),
        accountIds: ['a', 'c'],
        balance: () => Promise.resolve(null),
      },
      5_000,
      () => now,
    );
    let text = await registry.metrics();
    assert.match(text, /^payouts_funds_amount_paise\{account="a",stage="held_for_funds"\} 123457$/m);
    assert.match(text, /^payouts_funds_payouts\{account="a",stage="held_for_funds"\} 5$/m);
    assert.match(text, /^payouts_funds_payouts\{account="c",stage="held_for_funds"\} 0$/m);
    assert.match(text, /^payouts_funds_held_oldest_seconds\{account="a"\} 5400$/m);
    assert.match(text, /^payouts_funds_held_oldest_seconds\{account="b"\} 0$/m);
    assert.match(text, /^payouts_funds_held_oldest_seconds\{account="c"\} 0$/m);
    // The age grows on scrape between reads of the (cached) figures.
    now += 60_000;
    text = await registry.metrics();
    assert.match(text, /^payouts_funds_held_oldest_seconds\{account="a"\} 5460$/m);
  });

  it('the maximum hold of each account that holds, in seconds; none for the others', async () => {
    const registry = new Registry();
    new FundsAlertGauges(
      registry,
      { accountIds: ['a', 'c'], balance: () => Promise.resolve(null) },
      {
        thresholds: new Map(),
        readerOn: true,
        holds: new Map([['a', { thresholdPaise: 0n, feePaise: 0n, maxHoldMs: 96 * 3_600_000 }]]),
      },
    );
    const text = await registry.metrics();
    assert.match(text, /^payouts_funds_max_hold_seconds\{account="a"\} 345600$/m);
    assert.doesNotMatch(text, /payouts_funds_max_hold_seconds\{account="c"\}/);
  });
});
