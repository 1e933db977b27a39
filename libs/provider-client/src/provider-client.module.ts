import { type DynamicModule, Module, type OnApplicationShutdown, Inject } from '@nestjs/common';
import { type Registry } from 'prom-client';
import { LOGGER, METRICS_REGISTRY, type AppLogger } from '#observability';
import { PROVIDER_CLIENT, PROVIDER_CLIENT_OPTIONS } from './provider-client.di-tokens.js';
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
 * Registers PROVIDER_CLIENT. Expects LOGGER and METRICS_REGISTRY (#observability tokens) from
 * the importing app; the options come from `providerClientOptionsFromConfig`.
 */
@Module({})
export class ProviderClientModule {
  static register(options: ProviderClientOptions): DynamicModule {
    return {
      module: ProviderClientModule,
      providers: [
        { provide: PROVIDER_CLIENT_OPTIONS, useValue: options },
        {
          provide: PROVIDER_CLIENT,
          inject: [PROVIDER_CLIENT_OPTIONS, LOGGER, METRICS_REGISTRY],
          useFactory: (o: ProviderClientOptions, logger: AppLogger, registry: Registry) =>
            createProviderClient(o, { logger, registry }),
        },
        ProviderClientCloser,
      ],
      exports: [PROVIDER_CLIENT],
    };
  }
}
