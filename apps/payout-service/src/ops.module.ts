import {
  Inject,
  Injectable,
  Module,
  type DynamicModule,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import { type Registry } from 'prom-client';
import { OperatorDirectory, SignInGate, SignInMetrics } from '#operations';
import { LOGGER, METRICS_REGISTRY, type AppLogger } from '#observability';
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

const SIGN_IN_LOG_INTERVAL_MS = Symbol('OPS_AUTH_LOG_INTERVAL_MS');

/** Writes the sampled failed sign-in lines whose interval is over (SignInGate.flush), on a timer. */
@Injectable()
class SignInLogFlusher implements OnApplicationBootstrap, OnApplicationShutdown {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    @Inject(SignInGate) private readonly gate: SignInGate,
    @Inject(OperatorDirectory) private readonly operators: OperatorDirectory,
    @Inject(SIGN_IN_LOG_INTERVAL_MS) private readonly intervalMs: number,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.operators.enabled) return;
    this.timer = setInterval(() => this.gate.flush(Date.now()), this.intervalMs);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
    this.gate.flush(Number.POSITIVE_INFINITY);
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
        { provide: SIGN_IN_LOG_INTERVAL_MS, useValue: config.operations.OPS_AUTH_LOG_INTERVAL_MS },
        {
          provide: SignInGate,
          inject: [METRICS_REGISTRY, LOGGER],
          useFactory: (registry: Registry, logger: AppLogger) =>
            new SignInGate(
              directory,
              {
                maxFailures: config.operations.OPS_AUTH_FAILURE_LIMIT,
                windowMs: config.operations.OPS_AUTH_FAILURE_WINDOW_MS,
                logIntervalMs: config.operations.OPS_AUTH_LOG_INTERVAL_MS,
              },
              new SignInMetrics(registry),
              // The source address and why, never the header: no token material in a log line.
              ({ source, reason, suppressed }) =>
                logger.warn(
                  { source, ...(reason ? { reason } : {}), suppressed },
                  reason
                    ? 'operations API: failed sign-in'
                    : 'operations API: failed sign-ins left out of the log since the last line',
                ),
            ),
        },
        SignInLogFlusher,
        { provide: CONSOLE_ASSETS, useFactory: () => (enabled ? loadConsoleAssets(CONSOLE_DIR) : new Map()) },
      ],
    };
  }
}
