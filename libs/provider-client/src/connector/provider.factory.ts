import { type Registry } from 'prom-client';
import { type ProviderHosts } from '#config';
import { type Tracing } from '#observability';
import { accountApiGeneration, accountsWhereNotReceivedFails } from '../account-generation.js';
import { type ProviderClientLogger } from '../call-recorder.js';
import { PromRateBudgetMetrics } from '../metrics/rate-budget-metrics.js';
import { type ProviderClientConfig } from '../provider-client.config.js';
import { createProviderClient } from '../provider-client.factory.js';
import { type ProviderBalance } from '../adapters/get-balance.adapter.js';
import { type ProviderResult } from '../core/outcome.js';
import { type ProviderClient } from '../provider-client.js';
import { accountApi, providerClientOptionsFromConfig } from '../provider-client.options.js';
import { sharedRateBudgetSettings } from '../rate-budget/rate-budget.config.js';
import { SharedRateBudget } from '../rate-budget/shared-rate-budget.js';
import { type RateSlotStore } from '../rate-budget/slot-store.js';
import { type ResultListener } from '../request-executor.js';
import { type HttpTransport } from '../transport/http-transport.js';
import { webhookEventLabel, webhookMeaning } from '../webhooks/webhook-meaning.js';
import { webhookReaders } from '../webhooks/webhook-reader.js';
import { parseEventTime } from '../webhooks/webhook-shape.js';
import { BeneficiaryConnector } from './beneficiary.connector.js';
import { type Connectors } from './connector.port.js';
import {
  type AccountBalance,
  type ProviderAccounts,
  type ProviderBeneficiaries,
  ProviderPort,
  type ProviderQueries,
  type ProviderWebhooks,
} from './provider.port.js';
import { V1Connector } from './v1.connector.js';
import { V2Connector } from './v2.connector.js';

export interface ProviderDeps {
  /** The client's and the shared rate budget's metrics (none without). */
  readonly registry?: Registry;
  readonly logger?: ProviderClientLogger;
  /** The shared rate budget's own log lines (default: `logger`). */
  readonly rateBudgetLogger?: ProviderClientLogger;
  /** A client span per call (ADR 0015). */
  readonly tracing?: Tracing;
  /**
   * With PROVIDER_RATE_BUDGET=postgres: where every instance reserves its send slots (the
   * ledger's RateBudgetRepository), and how to release it when the provider closes.
   */
  readonly slots?: { readonly store: RateSlotStore; readonly close: () => Promise<void> };
  /** Tests: the HTTP transport (default undici). */
  readonly transport?: HttpTransport;
}

/** Both generations over one client (one executor: shared auth, rate budgets and metrics). */
export function connectorsOf(client: ProviderClient): Connectors {
  return { v1: new V1Connector(client), v2: new V2Connector(client) };
}

/** A decimal as the provider wrote it ("173980.5", "-5") with exactly 2 places, never through a float. */
export function twoPlaces(decimal: string): string {
  const [whole = '0', frac = ''] = decimal.split('.');
  return `${whole}.${frac.padEnd(2, '0')}`;
}

/** Get Balance's answer in the service's terms: both balances with 2 places, and when it came. */
export function accountBalanceOf(
  r: ProviderResult<ProviderBalance>,
  readAt: Date,
): ProviderResult<AccountBalance> {
  const of = (d: ProviderBalance): AccountBalance => ({
    available: twoPlaces(d.availableBalance),
    ledger: twoPlaces(d.balance),
    readAt,
  });
  switch (r.outcome) {
    case 'success':
      return { ...r, data: of(r.data) };
    case 'pending':
    case 'failed':
    case 'unknown': {
      const { data, ...rest } = r;
      return data === undefined ? rest : { ...rest, data: of(data) };
    }
    default:
      return r;
  }
}

/** The service's door to the provider, built from its configuration section. */
export function createProvider(
  c: ProviderClientConfig,
  hosts: ProviderHosts,
  deps: ProviderDeps = {},
): ProviderPort {
  const options = providerClientOptionsFromConfig(c, hosts);
  const rateBudget = deps.slots
    ? new SharedRateBudget(sharedRateBudgetSettings(options, c), {
        store: deps.slots.store,
        metrics: deps.registry ? new PromRateBudgetMetrics(deps.registry) : undefined,
        logger: deps.rateBudgetLogger ?? deps.logger,
        onClose: deps.slots.close,
      })
    : undefined;
  const client = createProviderClient(options, {
    registry: deps.registry,
    logger: deps.logger,
    rateBudget,
    tracing: deps.tracing,
    transport: deps.transport,
  });
  const accounts: ProviderAccounts = {
    ids: options.accounts.map((a) => a.accountId),
    apiOf: (accountId) => accountApi(options, accountId),
    webhookKeys: new Map(options.accounts.map((a) => [a.accountId, a.clientSecret])),
    pinnedWebhookVersions: new Map(
      options.accounts.flatMap((a) => (a.webhookVersion ? [[a.accountId, a.webhookVersion] as const] : [])),
    ),
    notReceivedFails: accountsWhereNotReceivedFails(c),
  };
  return new Provider(client, accountApiGeneration(c), accounts);
}

/** A provider over a client built elsewhere (tests: a fake transport or a fake client). */
export class Provider extends ProviderPort {
  readonly payouts: Connectors;
  readonly beneficiaries: ProviderBeneficiaries;
  readonly queries: ProviderQueries;
  readonly webhooks: ProviderWebhooks = {
    readers: webhookReaders,
    meaning: webhookMeaning,
    label: webhookEventLabel,
    eventTimeOf: parseEventTime,
    balanceRefused: (accountId) => this.client.balanceRefused(accountId),
  };

  constructor(
    private readonly client: ProviderClient,
    generationOf: (accountId: string) => 'v1' | 'v2',
    readonly accounts: ProviderAccounts,
  ) {
    super();
    this.payouts = connectorsOf(client);
    this.beneficiaries = new BeneficiaryConnector(client, generationOf);
    this.queries = {
      beneHistory: (q, opts) => client.call('beneHistory', { ...q }, opts),
      sdkToken: (q, opts) =>
        client.call(
          'createSdkToken',
          {
            appId: q.appId,
            product: q.product ?? 'VKYC',
            metadata: { vkyc_request_id: q.vkycRequestId },
            authenticatedUser: q.authenticatedUser,
          },
          opts,
        ),
      balance: async (accountId, requestId) =>
        accountBalanceOf(await client.call('getBalance', {}, { accountId, requestId }), new Date()),
    };
  }

  onResult(listener: ResultListener): void {
    this.client.onResult(listener);
  }

  close(): Promise<void> {
    return this.client.close();
  }
}
