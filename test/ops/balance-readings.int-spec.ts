import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { eventually, operatorsEnv, startStack, type Stack } from '#test-support';
import { type ServiceApp } from '../../apps/payout-service/src/bootstrap.js';
import { metric, metricsText } from '../webhooks/helpers.js';

const VIEWER = 'balance-viewer-token-0123456789abcdef';

interface Funds {
  accounts: Array<{ accountId: string; balance: { available: string; readAt: string } | null }>;
}

/**
 * Issue 32, item 1 end to end (real Postgres, the sandbox, the service): the reconciler role reads
 * each account's balance (a v1 account and a v2 account with its own merchant), keeps it in
 * Postgres, and GET /ops/funds and payouts_funds_available_paise show it. The interval is an hour,
 * so every later reading here comes from a provider notice (CREDIT_CONFIRMATION) waking the reader.
 */
describe('balance readings: read from the provider, kept, shown (real Postgres, sandbox)', () => {
  let stack: Stack;
  let service: ServiceApp;

  const funds = async (): Promise<Funds> => {
    const res = await fetch(`${service.url}/ops/funds`, { headers: { authorization: `Bearer ${VIEWER}` } });
    assert.equal(res.status, 200);
    return (await res.json()) as Funds;
  };
  const balanceOf = async (accountId: string) =>
    (await funds()).accounts.find((a) => a.accountId === accountId)?.balance ?? undefined;
  const reads = (account: string, outcome: string) =>
    metric(service.url, 'payouts_balance_reads_total', { account, outcome });

  before(async () => {
    stack = await startStack({
      env: {
        OPS_OPERATORS: operatorsEnv([{ id: 'vera', role: 'viewer', token: VIEWER }]),
        SERVICE_ROLES: 'reconciler,webhooks',
        WEBHOOKS_PORT: '0',
        BALANCE_READ_INTERVAL_MS: '3600000',
        FUNDS_LOW_BALANCE_THRESHOLD: '100.00',
        FUNDS_LOW_BALANCE_THRESHOLDS: JSON.stringify({ v2acc: '1000.50' }),
        PROVIDER_ACCOUNTS: JSON.stringify([
          { accountId: 'v2acc', clientId: 'bal_v2_client', clientSecret: 'bal_v2_secret', api: 'v2' },
        ]),
      },
      sandbox: {
        initialBalance: '5000.00',
        merchants: [{ clientId: 'bal_v2_client', clientSecret: 'bal_v2_secret', initialBalance: '250.50' }],
      },
    });
    service = await stack.startService();
    await stack.sandboxCall('POST', '/__sandbox/webhooks', {
      url: `${service.webhooksUrl}/webhooks/v1/default`,
      version: 'v1',
    });
  });
  after(async () => {
    await stack?.close();
  });

  it('reads every account at start: /ops/funds and the gauge show the available balance, exact', async () => {
    const v1 = await eventually(() => balanceOf('default'), { what: 'the first reading of default' });
    assert.equal(v1.available, '5000.00');
    assert.ok(Math.abs(Date.parse(v1.readAt) - Date.now()) < 60_000, v1.readAt);
    const v2 = await eventually(() => balanceOf('v2acc'), { what: 'the first reading of the v2 account' });
    assert.equal(v2.available, '250.50', "the v2 account's own merchant, read on the v1 path");
    await eventually(async () =>
      (await metric(service.url, 'payouts_funds_available_paise', { account: 'v2acc' })) === 25050
        ? true
        : undefined,
    );
    assert.equal(await metric(service.url, 'payouts_funds_available_paise', { account: 'default' }), 500000);
    assert.equal(await reads('default', 'success'), 1, 'one read per interval, not per look');
    // What the funds alerts compare (issue 32): finance's thresholds, and the reading's age.
    assert.equal(
      await metric(service.url, 'payouts_funds_low_threshold_paise', { account: 'default' }),
      10000,
    );
    assert.equal(
      await metric(service.url, 'payouts_funds_low_threshold_paise', { account: 'v2acc' }),
      100050,
    );
    const age = /^payouts_balance_reading_age_seconds\{account="default"\} ([0-9.e+-]+)$/m.exec(
      await metricsText(service.url),
    );
    assert.ok(age && Number(age[1]) >= 0 && Number(age[1]) < 60, `reading age ${age?.[1]}`);
    const [row] = await stack.sql<{ ledger: string; failures: number }>(
      `SELECT ledger::text, failures FROM balance_reading WHERE account_id = 'default'`,
    );
    assert.deepEqual(row, { ledger: '5000.00', failures: 0 });
  });

  it('a top-up (the control call) sends CREDIT_CONFIRMATION: the reader reads again at once, not after the hour', async () => {
    await stack.sandboxCall('POST', '/__sandbox/fund', { amount: '0.10' });
    await stack.sandboxCall('POST', '/__sandbox/fund', { amount: '0.20' });
    await eventually(async () => ((await balanceOf('default'))?.available === '5000.30' ? true : undefined), {
      what: 'the reading after the top-up',
    });
    await eventually(async () =>
      (await metric(service.url, 'payouts_funds_available_paise', { account: 'default' })) === 500030
        ? true
        : undefined,
    );
    assert.equal((await balanceOf('v2acc'))?.available, '250.50', 'the other account is not read for it');
  });

  it('a failed read keeps the last reading with its time, and is counted', async () => {
    const kept = await balanceOf('default');
    assert.ok(kept);
    const failedBefore = await reads('default', 'fatal-config');
    await stack.sandboxCall('POST', '/__sandbox/flags', { apisDisabled: ['getBalance'] });
    try {
      await stack.sandboxCall('POST', '/__sandbox/fund', { amount: '1.00' });
      await eventually(
        async () => ((await reads('default', 'fatal-config')) > failedBefore ? true : undefined),
        {
          what: 'the failed read, counted',
        },
      );
      assert.deepEqual(await balanceOf('default'), kept, 'the reading and its time as they were');
      const [row] = await stack.sql<{ failures: number; failure: string; failed_at: Date | null }>(
        `SELECT failures, failure, failed_at FROM balance_reading WHERE account_id = 'default'`,
      );
      assert.equal(row?.failures, 1);
      assert.equal(row?.failure, 'fatal-config');
      assert.ok(row?.failed_at);
    } finally {
      await stack.sandboxCall('POST', '/__sandbox/flags', { apisDisabled: [] });
    }
    // The next notice reads again: the new balance, and no failure since.
    await stack.sandboxCall('POST', '/__sandbox/fund', { amount: '0.01' });
    await eventually(async () => ((await balanceOf('default'))?.available === '5001.31' ? true : undefined), {
      what: 'the reading after the failure',
    });
    const [row] = await stack.sql<{ failures: number }>(
      `SELECT failures FROM balance_reading WHERE account_id = 'default'`,
    );
    assert.equal(row?.failures, 0);
  });
});
