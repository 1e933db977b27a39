import { Inject, Injectable, Module, type DynamicModule, type OnApplicationBootstrap } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import type pg from 'pg';
import { PG_POOL } from '#database';
import { BatchRepository, PayoutLedger, PayoutRepository } from '#ledger';
import { LOGGER, type AppLogger } from '#observability';
import { OperationsService } from '#operations';
import { OutboxRelay, OutboxRepository } from '#outbox';
import { SERVICE_CONFIG } from './infrastructure.module.js';
import { OpsAuthGuard, OpsController } from './ops.controller.js';
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
    else this.logger.info('operations API enabled on /ops (bearer token)');
  }
}

/**
 * The operations API (/ops, on the HTTP port of /health). The relay's replay is the relay's own
 * (it wakes the relay); it lives in the pipeline module, so it is looked up when called.
 */
@Module({})
export class OpsModule {
  static forRoot(config: ServiceConfig): DynamicModule {
    const enabled = config.operations.OPS_API_TOKEN !== '';
    return {
      module: OpsModule,
      controllers: enabled ? [OpsController] : [],
      providers: [
        OpsAnnouncer,
        OpsAuthGuard,
        {
          provide: OperationsService,
          inject: [PG_POOL, ModuleRef, LOGGER],
          useFactory: (pool: pg.Pool, ref: ModuleRef, logger: AppLogger) => {
            const payouts = new PayoutRepository();
            return new OperationsService({
              pool,
              payouts,
              batches: new BatchRepository(),
              ledger: new PayoutLedger({ pool, payouts, outbox: new OutboxRepository(), logger }),
              replayDead: (id) => ref.get(OutboxRelay, { strict: false }).replayDead(id),
              logger: logger.child({ component: 'operations' }),
            });
          },
        },
      ],
    };
  }
}
