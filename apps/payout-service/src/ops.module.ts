import { Inject, Injectable, Module, type DynamicModule, type OnApplicationBootstrap } from '@nestjs/common';
import { OperatorDirectory } from '#operations';
import { LOGGER, type AppLogger } from '#observability';
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
      this.logger.info('operations API disabled (OPS_OPERATORS is not set): /ops answers 404');
    else
      this.logger.info(
        { operators: this.operators.size },
        'operations API enabled on /ops (one bearer token per operator)',
      );
  }
}

/**
 * The operations API (/ops, on the HTTP port of /health). Its use cases (OperationsService) are
 * built with the pipeline (createPipeline), on the pipeline's repository and ledger step.
 */
@Module({})
export class OpsModule {
  static forRoot(config: ServiceConfig): DynamicModule {
    const directory = new OperatorDirectory(config.operations.OPS_OPERATORS);
    return {
      module: OpsModule,
      controllers: directory.enabled ? [OpsController] : [],
      providers: [{ provide: OperatorDirectory, useValue: directory }, OpsAnnouncer, OpsAuthGuard],
    };
  }
}
