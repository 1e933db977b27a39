import { Inject, Injectable, Module, type DynamicModule, type OnApplicationBootstrap } from '@nestjs/common';
import { OperatorDirectory } from '#operations';
import { LOGGER, type AppLogger } from '#observability';
import { CONSOLE_ASSETS, CONSOLE_DIR, ConsoleController, loadConsoleAssets } from './console.controller.js';
import { OpsAuthGuard, OpsController } from './ops.controller.js';
import { type ServiceConfig } from './service.config.js';

/** Says once, at boot, whether the operations API is on, and for how many operators. */
@Injectable()
class OpsAnnouncer implements OnApplicationBootstrap {
  constructor(
    @Inject(OperatorDirectory) private readonly operators: OperatorDirectory,
    @Inject(LOGGER) private readonly logger: AppLogger,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.operators.enabled)
      this.logger.info('operations API disabled (OPS_OPERATORS is not set): /ops and /console answer 404');
    else
      this.logger.info(
        { operators: this.operators.size },
        'operations API enabled on /ops (one bearer token per operator); web console on /console',
      );
  }
}

/**
 * The operations API (/ops, on the HTTP port of /health) and its web console (/console, static
 * files; each operator signs in with their own token). Its use cases (OperationsService,
 * DeadLetterListing) are built with the pipeline (createPipeline), on the pipeline's repositories.
 */
@Module({})
export class OpsModule {
  static forRoot(config: ServiceConfig): DynamicModule {
    const directory = new OperatorDirectory(config.operations.OPS_OPERATORS);
    const enabled = directory.enabled;
    return {
      module: OpsModule,
      controllers: enabled ? [OpsController, ConsoleController] : [],
      providers: [
        { provide: OperatorDirectory, useValue: directory },
        OpsAnnouncer,
        OpsAuthGuard,
        { provide: CONSOLE_ASSETS, useFactory: () => (enabled ? loadConsoleAssets(CONSOLE_DIR) : new Map()) },
      ],
    };
  }
}
