import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Registry } from 'prom-client';
import { FUNDS_ALERT_VARS, lowBalanceThresholds } from './funds/funds-alerts.config.js';
import { FundsAlertGauges, PromPaidMetrics } from './funds-alerts.gauges.js';
import { type BalanceReading } from './funds/balance-readings.js';

const NOW = Date.parse('2026-11-27T10:00:00Z');

function gauges(readerOn: boolean, readings: ReadonlyMap<string, BalanceReading | null>) {
  const registry = new Registry();
  new FundsAlertGauges(
    registry,
    { accountIds: ['a', 'b', 'c'], balance: (id) => Promise.resolve(readings.get(id) ?? null) },
    {
      thresholds: new Map([
        ['a', 5_000_000n],
        ['b', 0n],
      ]),
      readerOn,
      now: () => NOW,
    },
  );
  return registry;
}

describe('the funds alerts (issue 32)', () => {
  it('thresholds: the global one, overridden per account, in paise; accounts not configured ignored', () => {
    const parse = (v: string | undefined, key: keyof typeof FUNDS_ALERT_VARS) =>
      FUNDS_ALERT_VARS[key].schema.safeParse(v ?? FUNDS_ALERT_VARS[key].default);
    const global = parse('25000.5', 'FUNDS_LOW_BALANCE_THRESHOLD');
    const per = parse('{"b":"100.00","x":"1"}', 'FUNDS_LOW_BALANCE_THRESHOLDS');
    assert.ok(global.success && per.success);
    const got = lowBalanceThresholds(
      {
        FUNDS_LOW_BALANCE_THRESHOLD: global.data as string,
        FUNDS_LOW_BALANCE_THRESHOLDS: per.data as Record<string, string>,
      },
      ['a', 'b'],
    );
    assert.deepEqual(
      [...got],
      [
        ['a', 2_500_050n],
        ['b', 10_000n],
      ],
    );
    assert.deepEqual(parse(undefined, 'FUNDS_LOW_BALANCE_THRESHOLDS').data, {});
    assert.equal(parse(undefined, 'FUNDS_LOW_BALANCE_THRESHOLD').data, '0');
    for (const bad of ['-1', '1.234', '1e5', 'ten'])
      assert.equal(parse(bad, 'FUNDS_LOW_BALANCE_THRESHOLD').success, false, bad);
    for (const bad of ['{"a":10}', '{"a":"-1"}', '[', '["1"]'])
      assert.equal(parse(bad, 'FUNDS_LOW_BALANCE_THRESHOLDS').success, false, bad);
  });

  it('the threshold of every configured account, and the age of each reading known', async () => {
    const text = await gauges(
      true,
      new Map([
        ['a', { available: '1.00', readAt: new Date(NOW - 90_500) }],
        ['b', null],
      ]),
    ).metrics();
    assert.match(text, /^payouts_funds_low_threshold_paise\{account="a"\} 5000000$/m);
    assert.match(text, /^payouts_funds_low_threshold_paise\{account="b"\} 0$/m);
    assert.match(text, /^payouts_funds_low_threshold_paise\{account="c"\} 0$/m);
    assert.match(text, /^payouts_balance_reading_age_seconds\{account="a"\} 90\.5$/m);
    assert.doesNotMatch(text, /payouts_balance_reading_age_seconds\{account="b"\}/, 'nothing read yet');
  });

  it('no age while the reader is off: an old reading is then not a failing reader', async () => {
    const text = await gauges(
      false,
      new Map([['a', { available: '1.00', readAt: new Date(NOW - 1e9) }]]),
    ).metrics();
    assert.doesNotMatch(text, /payouts_balance_reading_age_seconds\{/);
  });

  it('the amount paid, in paise, per account', async () => {
    const registry = new Registry();
    const { paid } = new PromPaidMetrics(registry);
    paid('a', 123_456n);
    paid('a', 1n);
    paid('b', 900_719_925_474_099n);
    const text = await registry.metrics();
    assert.match(text, /^payouts_paid_amount_paise_total\{account="a"\} 123457$/m);
    assert.match(text, /^payouts_paid_amount_paise_total\{account="b"\} 900719925474099$/m);
  });
});
