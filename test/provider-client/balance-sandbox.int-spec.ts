import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfig, providerHostsConfig, resolveProviderHosts } from '#config';
import { createProvider, providerClientConfig, type ProviderPort } from '#provider-client';
import { getBalanceAdapter } from '#provider-client/testing';
import { GET_BALANCE, legacyHttpStatus, startSandbox, type LegacyRow, type RunningSandbox } from '#sandbox';

/**
 * The provider's balance through the one door (issue 32, item 1), against the sandbox over HTTP:
 * an account on v1 and an account on v2 (its own merchant), each reading its own balance on the
 * v1 path after the v1 authorize, as the provider documents for v2.
 */
describe('Get Balance: every answer of the sandbox table reads as its meaning', () => {
  const answer = (statusCode: number, body: unknown) => ({
    statusCode,
    headers: {},
    body: JSON.stringify(body),
  });
  const expected: Record<string, string> = {
    success: 'success',
    tokenInvalid: 'auth-refresh',
    tokenMissing: 'auth-refresh',
    ipNotWhitelisted: 'fatal-config',
    apisNotEnabled: 'fatal-config',
    instrumentInvalid: 'failed/invalid-request',
    tooManyRequests: 'retry-safe',
    unknownError: 'unknown',
  };
  for (const [key, row] of Object.entries<LegacyRow>(GET_BALANCE)) {
    it(`${key} (${row.subCode} ${row.message})`, () => {
      const data = row.status === 'SUCCESS' ? { balance: '1.00', availableBalance: '0.50' } : undefined;
      const c = getBalanceAdapter.classify(answer(legacyHttpStatus(row), { ...row, data }));
      const verdict = c.outcome === 'failed' ? `failed/${c.kind}` : c.outcome;
      assert.ok(expected[key], `no meaning written for the sandbox row ${key}`);
      assert.equal(verdict, expected[key], JSON.stringify(c));
    });
  }
});

describe('Get Balance against the sandbox: a v1 and a v2 account', () => {
  let sandbox: RunningSandbox;
  let provider: ProviderPort;
  const ctl = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${sandbox.url}${path}`, {
      method,
      headers: { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    assert.ok(res.ok, `${method} ${path}: ${res.status}`);
    return (await res.json()) as Record<string, unknown>;
  };

  before(async () => {
    sandbox = await startSandbox({
      port: 0,
      initialBalance: '1000.00',
      merchants: [{ clientId: 'bal_v2_client', clientSecret: 'bal_v2_secret', initialBalance: '250.50' }],
    });
    const [cfg, hosts] = loadConfig([providerClientConfig, providerHostsConfig], {
      SANDBOX_PORT: new URL(sandbox.url).port,
      PROVIDER_ACCOUNT_ID: 'main',
      PROVIDER_RATE_BUDGET: 'memory',
      PROVIDER_ACCOUNTS: JSON.stringify([
        { accountId: 'v2acc', clientId: 'bal_v2_client', clientSecret: 'bal_v2_secret', api: 'v2' },
      ]),
    });
    provider = createProvider(cfg, resolveProviderHosts(hosts));
  });
  after(async () => {
    await provider.close();
    await sandbox.close();
  });

  it('v1: the available and ledger balance, exact, with the time read; a top-up shows in the next reading', async () => {
    assert.equal(provider.accounts.apiOf('main'), 'v1');
    const before = Date.now();
    const r = await provider.queries.balance('main', 'bal-1');
    assert.equal(r.outcome, 'success', JSON.stringify(r));
    if (r.outcome !== 'success') return;
    assert.deepEqual(
      { available: r.data.available, ledger: r.data.ledger },
      { available: '1000.00', ledger: '1000.00' },
    );
    assert.ok(r.data.readAt.getTime() >= before);
    assert.equal(r.diagnostics.endpoint, 'getBalance');
    await ctl('POST', '/__sandbox/fund', { amount: '0.10' });
    await ctl('POST', '/__sandbox/fund', { amount: '0.20' });
    const again = await provider.queries.balance('main');
    assert.equal(again.outcome === 'success' ? again.data.available : again.outcome, '1000.30');
  });

  it("v2: the account's own merchant, read on the v1 path after the v1 authorize", async () => {
    assert.equal(provider.accounts.apiOf('v2acc'), 'v2');
    const r = await provider.queries.balance('v2acc');
    assert.equal(r.outcome, 'success', JSON.stringify(r));
    assert.equal(r.outcome === 'success' ? r.data.available : '', '250.50');
    assert.equal(r.outcome === 'success' ? r.data.ledger : '', '250.50');
  });

  it('"APIs not enabled" for getBalance is fatal-config, not a balance', async () => {
    await ctl('POST', '/__sandbox/flags', { apisDisabled: ['getBalance'] });
    try {
      const r = await provider.queries.balance('main');
      assert.equal(r.outcome, 'fatal-config', JSON.stringify(r));
      assert.equal('data' in r, false);
    } finally {
      await ctl('POST', '/__sandbox/flags', { apisDisabled: [] });
    }
  });
});
