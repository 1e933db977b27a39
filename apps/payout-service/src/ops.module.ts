import { Inject, Injectable, Module, type DynamicModule, type OnApplicationBootstrap } from '@nestjs/common';
import { LOGGER, type AppLogger } from '#observability';
import { SERVICE_CONFIG } from './infrastructure.module.js';
import { CONSOLE_ASSETS, CONSOLE_DIR, ConsoleController, loadConsoleAssets } from './console.controller.js';
import { OpsAuthGuard, OpsController } from './ops.controller.js';
import { OpsDeadLettersController } from './ops-dead-letters.controller.js';
import { type ServiceConfig } from './service.config.js';

/** Says once, at boot, whether the operations API is on. */
@Injectable()
class OpsAnnouncer implements OnApplicationBootstrap {
  constructor(
    @Inject(SERVICE_CONFIG) private readonly config: ServiceConfig,
    @Inject(LOGGER) private readonly logger: AppLogger,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.operations.OPS_API_TOKEN === '')
      this.logger.info('operations API disabled (OPS_API_TOKEN is not set): /ops answers 404');
    else this.logger.info('operations API enabled on /ops (bearer token); web console on /console');
  }
}

/**
 * The operations API (/ops, on the HTTP port of /health) and its web console (/console, static
 * files; the operator signs in with their own token). Its use cases (OperationsService,
 * DeadLetterListing) are built with the pipeline (createPipeline), on the pipeline's repositories.
 */
@Module({})
export class OpsModule {
  static forRoot(config: ServiceConfig): DynamicModule {
    const enabled = config.operations.OPS_API_TOKEN !== '';
    return {
      module: OpsModule,
      controllers: enabled ? [OpsController, OpsDeadLettersController, ConsoleController] : [],
      providers: [
        OpsAnnouncer,
        OpsAuthGuard,
        { provide: CONSOLE_ASSETS, useFactory: () => (enabled ? loadConsoleAssets(CONSOLE_DIR) : new Map()) },
      ],
    };
  }
}
