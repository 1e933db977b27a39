import {
  createProviderClient,
  type ProviderClient,
  type ProviderClientDeps,
  type ProviderClientOptions,
} from '#provider-client/testing';
import { type StubProvider } from './stub-provider.js';

export const TEST_ACCOUNT = {
  accountId: 'acc-1',
  clientId: 'test_client_id',
  clientSecret: 'test-client-secret-value',
} as const;

/** Options with short timeouts and fast backoff so the suite stays quick. */
export function testOptions(
  stub: StubProvider,
  over: Partial<ProviderClientOptions> = {},
): ProviderClientOptions {
  const t = { connectMs: 500, headersMs: 1500, bodyMs: 1500 };
  return {
    hosts: { baseUrl: stub.url, payoutUrl: stub.url },
    accounts: [TEST_ACCOUNT],
    defaultAccountId: TEST_ACCOUNT.accountId,
    apiVersion: '2024-01-01',
    timeouts: { default: t, transfer: t },
    tokenRefreshMarginSeconds: 60,
    ratePerMinute: {
      transfer: 600_000,
      status: 600_000,
      authorize: 600_000,
      balance: 600_000,
      default: 600_000,
    },
    maxAttempts: 3,
    retryBaseMs: 5,
    retryMaxMs: 20,
    maxRateLimitWaitMs: 5_000,
    ...over,
  };
}

export function testClient(
  stub: StubProvider,
  over: Partial<ProviderClientOptions> = {},
  deps: ProviderClientDeps = {},
): ProviderClient {
  return createProviderClient(testOptions(stub, over), deps);
}
