import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfig } from '#config';
import { accountApiGeneration } from './account-generation.js';
import { providerClientConfig } from './provider-client.config.js';

describe('accountApiGeneration', () => {
  it('v1 by default, for the primary and for an account without `api`', () => {
    const [c] = loadConfig([providerClientConfig], {
      PROVIDER_ACCOUNTS: JSON.stringify([{ accountId: 'b', clientId: 'x', clientSecret: 'y' }]),
    });
    const of = accountApiGeneration(c);
    assert.equal(of('default'), 'v1');
    assert.equal(of('b'), 'v1');
  });
  it('PROVIDER_API_GENERATION sets the primary; `api` sets one account (default v1, as the client options read it)', () => {
    const [c] = loadConfig([providerClientConfig], {
      PROVIDER_ACCOUNT_ID: 'main',
      PROVIDER_API_GENERATION: 'v2',
      PROVIDER_ACCOUNTS: JSON.stringify([
        { accountId: 'old', clientId: 'x', clientSecret: 'y', api: 'v1' },
        { accountId: 'plain', clientId: 'x', clientSecret: 'y' },
      ]),
    });
    const of = accountApiGeneration(c);
    assert.equal(of('main'), 'v2');
    assert.equal(of('old'), 'v1');
    assert.equal(of('plain'), 'v1');
  });
  it('refuses a generation it does not know', () => {
    assert.throws(() => loadConfig([providerClientConfig], { PROVIDER_API_GENERATION: 'v3' }));
    assert.throws(() =>
      loadConfig([providerClientConfig], {
        PROVIDER_ACCOUNTS: JSON.stringify([{ accountId: 'a', clientId: 'x', clientSecret: 'y', api: 'v9' }]),
      }),
    );
  });
});
