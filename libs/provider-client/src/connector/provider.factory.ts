import { type Registry } from 'prom-client';
import { type ProviderHosts } from '#config';
import { type Tracing } from '#observability';
import { accountApiGeneration, accountsWhereNotReceivedFails } from '../account-generation.js';
import { type ProviderClientLogger } from '../call-recorder.js';
import { PromRateBudgetMetrics } from '../metrics/rate-budget-metrics.js';
import { type ProviderClientConfig } from '../provider-client.config.js';
import { createProviderClient } from '../provider-client.factory.js';
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
    };
  }

  onResult(listener: ResultListener): void {
    this.client.onResult(listener);
  }

  close(): Promise<void> {
    return this.client.close();
  }
}
