import { Module, type DynamicModule } from '@nestjs/common';
import { HealthModule } from '#health';
import { MetricsController, type AppLogger, type Tracing } from '#observability';
import { InfrastructureModule } from './infrastructure.module.js';
import { ObservabilityModule } from './observability.module.js';
import { OpsModule } from './ops.module.js';
import { PipelineModule } from './pipeline.module.js';
import { type ServiceConfig } from './service.config.js';

@Module({})
export class ServiceModule {
  static forRoot(config: ServiceConfig, logger: AppLogger, tracing: Tracing): DynamicModule {
    return {
      module: ServiceModule,
      imports: [
        InfrastructureModule.forRoot(config, logger, tracing),
        ObservabilityModule.forRoot(),
        HealthModule,
        PipelineModule.forRoot(config),
        OpsModule.forRoot(config),
      ],
      controllers: [MetricsController],
    };
  }
}
