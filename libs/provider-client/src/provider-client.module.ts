import {
  type DynamicModule,
  Inject,
  Module,
  type ModuleMetadata,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { type Registry } from 'prom-client';
import { LOGGER, METRICS_REGISTRY, type AppLogger } from '#observability';
import {
  PROVIDER_CLIENT,
  PROVIDER_CLIENT_METRICS,
  PROVIDER_CLIENT_OPTIONS,
} from './provider-client.di-tokens.js';
import { noopProviderClientMetrics, type ProviderClientMetrics } from './metrics/provider-client-metrics.js';
import { PromProviderClientMetrics } from './metrics/prom-provider-client-metrics.js';
import { createProviderClient } from './provider-client.factory.js';
import { type ProviderClient } from './provider-client.js';
import { type ProviderClientOptions } from './provider-client.options.js';

class ProviderClientCloser implements OnApplicationShutdown {
  constructor(@Inject(PROVIDER_CLIENT) private readonly client: ProviderClient) {}
  async onApplicationShutdown(): Promise<void> {
    await this.client.close();
  }
}

/**
 * Registers PROVIDER_CLIENT. Uses LOGGER and METRICS_REGISTRY (#observability tokens) when they
 * are visible (a global module, or one passed in `imports`); without them it runs unobserved.
 * The options come from `providerClientOptionsFromConfig`.
 */
@Module({})
export class ProviderClientModule {
  static register(options: ProviderClientOptions, imports: ModuleMetadata['imports'] = []): DynamicModule {
    return {
      module: ProviderClientModule,
      imports,
      providers: [
        { provide: PROVIDER_CLIENT_OPTIONS, useValue: options },
        {
          provide: PROVIDER_CLIENT_METRICS,
          inject: [{ token: METRICS_REGISTRY, optional: true }],
          useFactory: (registry?: Registry): ProviderClientMetrics =>
            registry ? new PromProviderClientMetrics(registry) : noopProviderClientMetrics,
        },
        {
          provide: PROVIDER_CLIENT,
          inject: [PROVIDER_CLIENT_OPTIONS, PROVIDER_CLIENT_METRICS, { token: LOGGER, optional: true }],
          useFactory: (o: ProviderClientOptions, metrics: ProviderClientMetrics, logger?: AppLogger) =>
            createProviderClient(o, { logger, metrics }),
        },
        ProviderClientCloser,
      ],
      exports: [PROVIDER_CLIENT, PROVIDER_CLIENT_METRICS],
    };
  }
}
