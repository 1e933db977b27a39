import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError, loadConfig, providerHostsConfig, resolveProviderHosts } from '#config';
import { providerClientConfig, sharedSecretProblems } from './provider-client.config.js';
import { accountApi, providerClientOptionsFromConfig } from './provider-client.options.js';

describe('providerClientConfig', () => {
  it('defaults to the sandbox credentials, documented rates and a 60 s refresh margin', () => {
    const [c, h] = loadConfig([providerClientConfig, providerHostsConfig], {});
    const o = providerClientOptionsFromConfig(c, resolveProviderHosts(h));
    assert.deepEqual(o.accounts, [
      {
        accountId: 'default',
        clientId: 'sandbox_client_id',
        clientSecret: 'sandbox_client_secret',
        publicKey: undefined,
        api: 'v1',
      },
    ]);
    assert.deepEqual(o.ratePerMinute, {
      transfer: 9000,
      status: 7800,
      authorize: 3000,
      balance: 3000,
      default: 1000,
    });
    assert.equal(o.tokenRefreshMarginSeconds, 60);
    assert.equal(o.apiVersion, '2024-01-01');
    assert.equal(o.hosts.payoutUrl, 'http://127.0.0.1:8090');
  });

  it('reads per account the API generation, x-api-version and pinned webhook version (unset: both)', () => {
    const [c, h] = loadConfig([providerClientConfig, providerHostsConfig], {
      PROVIDER_API_GENERATION: 'v2',
      PROVIDER_ACCOUNTS: JSON.stringify([
        { accountId: 'a2', clientId: 'c2', clientSecret: 's2', api: 'v2', apiVersion: '2025-01-01' },
        { accountId: 'a3', clientId: 'c3', clientSecret: 's3', api: 'v2', webhookVersion: 'v1' },
        { accountId: 'a4', clientId: 'c4', clientSecret: 's4' },
      ]),
    });
    const o = providerClientOptionsFromConfig(c, resolveProviderHosts(h));
    const pick = (id: string) => {
      const a = o.accounts.find((x) => x.accountId === id);
      return [a?.api, a?.apiVersion, a?.webhookVersion];
    };
    assert.deepEqual(pick('default'), ['v2', undefined, undefined]);
    assert.deepEqual(pick('a2'), ['v2', '2025-01-01', undefined]);
    assert.deepEqual(pick('a3'), ['v2', undefined, 'v1']);
    assert.deepEqual(pick('a4'), ['v1', undefined, undefined]);
    assert.equal(accountApi(o, 'a2'), 'v2');
    assert.equal(accountApi(o, 'a4'), 'v1');
    assert.equal(accountApi(o), 'v2', 'no account named: the primary');
    assert.throws(
      () =>
        loadConfig([providerClientConfig], {
          PROVIDER_ACCOUNTS: JSON.stringify([
            { accountId: 'x', clientId: 'c', clientSecret: 's', api: 'v3' },
          ]),
        }),
      ConfigError,
    );
  });

  it('refuses a timeout override for an endpoint the registry does not know', () => {
    assert.throws(
      () =>
        loadConfig([providerClientConfig], {
          PROVIDER_ENDPOINT_TIMEOUTS: '{"requestTransfr":{"headersMs":1}}',
        }),
      (e: unknown) => e instanceof ConfigError && /not an endpoint/.test(e.message),
    );
  });

  it('reads per-endpoint timeouts and PEM escapes', () => {
    const [c, h] = loadConfig([providerClientConfig, providerHostsConfig], {
      PROVIDER_ENDPOINT_TIMEOUTS: '{"requestTransfer":{"headersMs":60000}}',
      PROVIDER_PUBLIC_KEY: '-----BEGIN PUBLIC KEY-----\\nabc\\n-----END PUBLIC KEY-----',
    });
    const o = providerClientOptionsFromConfig(c, resolveProviderHosts(h));
    assert.equal(o.timeouts.perEndpoint?.['requestTransfer']?.headersMs, 60000);
    assert.equal(o.accounts[0]?.publicKey, '-----BEGIN PUBLIC KEY-----\nabc\n-----END PUBLIC KEY-----');
  });

  it('rejects a bad PROVIDER_ACCOUNTS without printing its secrets', () => {
    let caught: unknown;
    try {
      loadConfig([providerClientConfig], {
        PROVIDER_ACCOUNTS: '[{"accountId":"a","clientSecret":"hunter2-secret"}]',
        PROVIDER_API_VERSION: '2024/01/01',
      });
    } catch (e) {
      caught = e;
    }
    assert.ok(caught instanceof ConfigError);
    assert.equal(caught.problems.length, 2);
    assert.match(caught.message, /PROVIDER_ACCOUNTS=<redacted>.*clientId/);
    assert.doesNotMatch(caught.message, /hunter2/);
  });

  it('names accounts that share a client secret (their webhook key), by id, never the secret (issue 30)', () => {
    const problems = (accounts: object[], primarySecret = 'primary-secret') =>
      sharedSecretProblems({
        PROVIDER_ACCOUNT_ID: 'main',
        PROVIDER_CLIENT_SECRET: primarySecret,
        PROVIDER_ACCOUNTS: accounts as never,
      });
    const acc = (accountId: string, clientSecret: string) => ({
      accountId,
      clientId: `c-${accountId}`,
      clientSecret,
    });
    assert.deepEqual(problems([acc('a', 's-a'), acc('b', 's-b')]), []);
    const shared = problems([acc('a', 'primary-secret'), acc('b', 's-b'), acc('c', 's-b')]);
    assert.equal(shared.length, 2);
    assert.match(shared[0] ?? '', /accounts main and a share a client secret/);
    assert.match(shared[1] ?? '', /accounts b and c share/);
    assert.doesNotMatch(shared.join('\n'), /primary-secret|s-b/);
    // An entry with the primary's id replaces the primary: one account, nothing shared.
    assert.deepEqual(problems([acc('main', 'primary-secret')]), []);
  });
});
