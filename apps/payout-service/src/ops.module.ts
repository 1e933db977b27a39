import {
  Inject,
  Injectable,
  Module,
  type DynamicModule,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import type pg from 'pg';
import { type Registry } from 'prom-client';
import { PG_POOL } from '#database';
import {
  ConsoleSessions,
  oidcSettings,
  OpenIdConnectProvider,
  OperatorActionRepository,
  OperatorDirectory,
  OperatorSessionRepository,
  OpsTokenRepository,
  OpsTokens,
  SignInAuditRepository,
  SignInGate,
  SignInMetrics,
  SignInRecorder,
  tokenAuthenticator,
} from '#operations';
import { LOGGER, METRICS_REGISTRY, type AppLogger } from '#observability';
import { ConsoleAuthController } from './console-auth.controller.js';
import { CONSOLE_ASSETS, CONSOLE_DIR, ConsoleController, loadConsoleAssets } from './console.controller.js';
import { OPS_ACCESS, type OpsAccess } from './ops-access.js';
import { OpsAuthGuard } from './ops-auth.guard.js';
import { OpsController } from './ops.controller.js';
import { type ServiceConfig } from './service.config.js';

/** Says once, at boot, whether the operations API is on, and for how many operators. */
@Injectable()
class OpsAnnouncer implements OnApplicationBootstrap {
  constructor(
    @Inject(OperatorDirectory) private readonly operators: OperatorDirectory,
    @Inject(OPS_ACCESS) private readonly access: OpsAccess,
    @Inject(LOGGER) private readonly logger: AppLogger,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.access.enabled)
      this.logger.info(
        'operations API disabled (neither OPS_OPERATORS nor OIDC_ISSUER is set): /ops and /console answer 404',
      );
    else
      this.logger.info(
        { operators: this.operators.size, oidcIssuer: this.access.oidc?.issuer.origin ?? null },
        'operations API enabled on /ops (bearer tokens, and console sessions when OIDC_ISSUER is set); web console on /console',
      );
  }
}

const SIGN_IN_LOG_INTERVAL_MS = Symbol('OPS_AUTH_LOG_INTERVAL_MS');

/**
 * Writes the sampled failed sign-in lines whose interval is over (SignInGate.flush), and forgets
 * unfinished sign-ins and long-ended sessions, on a timer.
 */
@Injectable()
class SignInLogFlusher implements OnApplicationBootstrap, OnApplicationShutdown {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    @Inject(SignInGate) private readonly gate: SignInGate,
    @Inject(OPS_ACCESS) private readonly access: OpsAccess,
    @Inject(SIGN_IN_LOG_INTERVAL_MS) private readonly intervalMs: number,
    @Inject(LOGGER) private readonly logger: AppLogger,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.access.enabled) return;
    this.timer = setInterval(() => {
      this.gate.flush(Date.now());
      this.access.sessions
        ?.prune()
        .catch((e: unknown) =>
          this.logger.warn({ err: e }, 'console sessions: pruning failed; the next run retries'),
        );
    }, this.intervalMs);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
    this.gate.flush(Number.POSITIVE_INFINITY);
  }
}

/**
 * The operations API (/ops, on the HTTP port of /health) and its web console (/console, static
 * files; each operator signs in with their own token). Its use cases (`libs/operations/src/use-cases`)
 * are built with the pipeline (createPipeline), on the pipeline's repositories.
 */
@Module({})
export class OpsModule {
  static forRoot(config: ServiceConfig): DynamicModule {
    const directory = new OperatorDirectory(config.operations.OPS_OPERATORS);
    const { settings: oidc } = oidcSettings(config.signIn);
    const enabled = directory.enabled || oidc !== undefined;
    return {
      module: OpsModule,
      controllers: enabled ? [OpsController, ConsoleController, ConsoleAuthController] : [],
      providers: [
        { provide: OperatorDirectory, useValue: directory },
        OpsAnnouncer,
        OpsAuthGuard,
        { provide: SIGN_IN_LOG_INTERVAL_MS, useValue: config.operations.OPS_AUTH_LOG_INTERVAL_MS },
        {
          provide: SignInMetrics,
          inject: [METRICS_REGISTRY],
          useFactory: (r: Registry) => new SignInMetrics(r),
        },
        {
          provide: SignInRecorder,
          inject: [PG_POOL, SignInMetrics],
          useFactory: (pool: pg.Pool, metrics: SignInMetrics) =>
            new SignInRecorder(
              pool,
              new SignInAuditRepository(),
              metrics,
              config.operations.OPS_AUTH_LOG_INTERVAL_MS,
            ),
        },
        {
          provide: OpsTokens,
          inject: [PG_POOL],
          useFactory: (pool: pg.Pool) =>
            new OpsTokens({
              pool,
              tokens: new OpsTokenRepository(),
              actions: new OperatorActionRepository(),
              maxTtlMs: config.signIn.OPS_TOKEN_MAX_TTL_MS,
            }),
        },
        {
          provide: OPS_ACCESS,
          inject: [PG_POOL, SignInRecorder],
          useFactory: (pool: pg.Pool, recorder: SignInRecorder): OpsAccess =>
            oidc
              ? {
                  enabled,
                  oidc,
                  sessions: new ConsoleSessions({
                    pool,
                    repository: new OperatorSessionRepository(),
                    provider: new OpenIdConnectProvider(oidc),
                    settings: oidc,
                    policy: {
                      maxAgeMs: config.signIn.OPS_SESSION_MAX_AGE_MS,
                      idleMs: config.signIn.OPS_SESSION_IDLE_MS,
                    },
                    recorder,
                  }),
                }
              : { enabled },
        },
        {
          provide: SignInGate,
          inject: [LOGGER, SignInMetrics, OpsTokens],
          useFactory: (logger: AppLogger, metrics: SignInMetrics, tokens: OpsTokens) =>
            new SignInGate(
              tokenAuthenticator(directory, tokens),
              {
                maxFailures: config.operations.OPS_AUTH_FAILURE_LIMIT,
                windowMs: config.operations.OPS_AUTH_FAILURE_WINDOW_MS,
                logIntervalMs: config.operations.OPS_AUTH_LOG_INTERVAL_MS,
              },
              metrics,
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
