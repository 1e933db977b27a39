import { type ProviderHosts } from '#config';
import { loadPublicKey } from './auth/signature-provider.js';
import { type RateClass } from './core/endpoint-adapter.js';
import { type ProviderApi } from '#contracts';
import { type Timeouts } from './transport/http-transport.js';
import { type EndpointTimeoutOverrides, type ProviderClientConfig } from './provider-client.config.js';

/** One provider account: its own credentials, token, and rate-limit buckets. */
export interface ProviderAccount {
  readonly accountId: string;
  readonly clientId: string;
  readonly clientSecret: string;
  /** PEM; when set, authorize carries X-Svc-Signature. */
  readonly publicKey?: string;
  /** The API generation new payouts and batches are sent on (default v1). */
  readonly api?: ProviderApi;
  /** x-api-version of its v2 calls; default: the client's apiVersion. */
  readonly apiVersion?: string;
  /**
   * The webhook version it is pinned to: deliveries in the other version are refused (404).
   * Unset: both are taken (each route reads its own format).
   */
  readonly webhookVersion?: ProviderApi;
}

export interface ProviderClientOptions {
  readonly hosts: ProviderHosts;
  readonly accounts: readonly ProviderAccount[];
  /** Used when a call names no account. */
  readonly defaultAccountId: string;
  readonly apiVersion: string;
  readonly timeouts: {
    readonly default: Timeouts;
    readonly transfer: Timeouts;
    readonly perEndpoint?: EndpointTimeoutOverrides;
  };
  readonly tokenRefreshMarginSeconds: number;
  /** The provider's published limits per account and endpoint, by class. */
  readonly ratePerMinute: Readonly<Record<RateClass, number>>;
  /** Share of those limits the client aims for (default 1): a little under, so no 429. */
  readonly rateTargetFraction?: number;
  /** The provider's counting window (default a minute): sizes the burst allowed after idle. */
  readonly rateWindowMs?: number;
  readonly maxAttempts: number;
  readonly retryBaseMs: number;
  readonly retryMaxMs: number;
  readonly maxRateLimitWaitMs: number;
}

/** The generation an account sends new payouts on: v1 unless configured (an unknown account: v1). */
export function accountApi(
  opts: Pick<ProviderClientOptions, 'accounts' | 'defaultAccountId'>,
  accountId?: string,
): ProviderApi {
  const id = accountId ?? opts.defaultAccountId;
  return opts.accounts.find((a) => a.accountId === id)?.api ?? 'v1';
}

/** Builds runtime options from the validated config sections. Reads key files once, at boot. */
export function providerClientOptionsFromConfig(
  c: ProviderClientConfig,
  hosts: ProviderHosts,
): ProviderClientOptions {
  const primary: ProviderAccount = {
    accountId: c.PROVIDER_ACCOUNT_ID,
    clientId: c.PROVIDER_CLIENT_ID,
    clientSecret: c.PROVIDER_CLIENT_SECRET,
    publicKey: loadPublicKey({ pem: c.PROVIDER_PUBLIC_KEY, file: c.PROVIDER_PUBLIC_KEY_FILE }),
    api: c.PROVIDER_API_GENERATION,
    ...(c.PROVIDER_WEBHOOK_VERSION ? { webhookVersion: c.PROVIDER_WEBHOOK_VERSION } : {}),
  };
  const extra: ProviderAccount[] = (c.PROVIDER_ACCOUNTS ?? []).map((a) => ({
    accountId: a.accountId,
    clientId: a.clientId,
    clientSecret: a.clientSecret,
    publicKey: loadPublicKey({ pem: a.publicKey, file: a.publicKeyFile }),
    api: a.api ?? 'v1',
    ...(a.apiVersion ? { apiVersion: a.apiVersion } : {}),
    ...(a.webhookVersion ? { webhookVersion: a.webhookVersion } : {}),
  }));
  const byId = new Map<string, ProviderAccount>([[primary.accountId, primary]]);
  for (const a of extra) byId.set(a.accountId, a);
  const base = { connectMs: c.PROVIDER_CONNECT_TIMEOUT_MS, bodyMs: c.PROVIDER_BODY_TIMEOUT_MS };
  return {
    hosts,
    accounts: [...byId.values()],
    defaultAccountId: primary.accountId,
    apiVersion: c.PROVIDER_API_VERSION,
    timeouts: {
      default: { ...base, headersMs: c.PROVIDER_HEADERS_TIMEOUT_MS },
      transfer: { ...base, headersMs: c.PROVIDER_TRANSFER_HEADERS_TIMEOUT_MS },
      perEndpoint: c.PROVIDER_ENDPOINT_TIMEOUTS ?? {},
    },
    tokenRefreshMarginSeconds: c.TOKEN_REFRESH_MARGIN_S,
    ratePerMinute: {
      transfer: c.PROVIDER_RATE_TRANSFER_PER_MIN,
      status: c.PROVIDER_RATE_STATUS_PER_MIN,
      authorize: c.PROVIDER_RATE_AUTHORIZE_PER_MIN,
      balance: c.PROVIDER_RATE_BALANCE_PER_MIN,
      default: c.PROVIDER_RATE_DEFAULT_PER_MIN,
    },
    rateTargetFraction: c.PROVIDER_RATE_TARGET_FRACTION,
    rateWindowMs: c.PROVIDER_RATE_WINDOW_MS,
    maxAttempts: c.PROVIDER_MAX_ATTEMPTS,
    retryBaseMs: c.PROVIDER_RETRY_BASE_MS,
    retryMaxMs: c.PROVIDER_RETRY_MAX_MS,
    maxRateLimitWaitMs: c.PROVIDER_MAX_RATE_LIMIT_WAIT_MS,
  };
}
