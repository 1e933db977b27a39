import { ConfigError, EXIT } from '#config';
import { describeDatabase, probePostgres } from '#database';
import {
  startBootHealthServer,
  waitForDependencies,
  type BootHealthServer,
  type BootWaitProblem,
} from '#health';
import { probeKafka } from '#messaging';
import { createLogger, routeProcessWarnings, type AppLogger } from '#observability';
import { startService, type ServiceApp } from './bootstrap.js';
import { loadServiceConfig, type ServiceConfig } from './service.config.js';

/** One message on stderr and the exit code of its kind (docs/OPERATIONS.md, "Exit codes"). */
function exitWith(code: number, message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(code);
}

function loadConfigOrExit(): ServiceConfig {
  try {
    return loadServiceConfig();
  } catch (e) {
    if (e instanceof ConfigError) exitWith(EXIT.CONFIG, e.message);
    throw e;
  }
}

const listProblems = (problems: readonly BootWaitProblem[]) =>
  problems.map((p) => `\n  - ${p.variable ? `${p.variable}: ` : ''}${p.dependency} ${p.reason}`).join('');

/**
 * The health listener first (live, not ready), then PostgreSQL and Kafka within
 * BOOT_DEPENDENCY_TIMEOUT_MS, then the application. Resolves undefined when a signal stopped the
 * wait; exits 78 or 69 when a dependency refused us or never answered.
 */
async function boot(
  config: ServiceConfig,
  logger: AppLogger,
  signal: AbortSignal,
): Promise<ServiceApp | undefined> {
  const health: BootHealthServer = await startBootHealthServer(config.core.HTTP_PORT);
  logger.info({ url: health.url }, 'health listener up; waiting for PostgreSQL and Kafka');
  const timeoutMs = config.deployment.BOOT_DEPENDENCY_TIMEOUT_MS;
  const started = Date.now();
  const result = await waitForDependencies(
    [
      {
        name: 'postgres',
        target: describeDatabase(config.core.DATABASE_URL),
        probe: () => probePostgres(config.core.DATABASE_URL),
      },
      {
        name: 'kafka',
        target: config.core.KAFKA_BROKERS.join(','),
        probe: () => probeKafka(config.core.KAFKA_BROKERS, config.core.KAFKA_CLIENT_ID),
      },
    ],
    {
      timeoutMs,
      signal,
      onAttempt: (a) => {
        health.waiting(a.dependency, a.reason);
        logger.warn(
          {
            dependency: a.dependency,
            target: a.target,
            attempt: a.attempt,
            retryInMs: a.retryInMs,
            reason: a.reason,
          },
          `waiting for ${a.dependency} (attempt ${a.attempt})`,
        );
      },
      onUp: (d) => health.up(d),
    },
  );
  switch (result.outcome) {
    case 'up':
      break;
    case 'aborted':
      await health.close();
      return undefined;
    case 'misconfigured':
      logger.error({ problems: result.problems }, 'a dependency refused this configuration');
      return exitWith(
        EXIT.CONFIG,
        `Invalid configuration (${result.problems.length} problem${result.problems.length === 1 ? '' : 's'}):${listProblems(result.problems)}`,
      );
    case 'unavailable': {
      const seconds = Math.round((Date.now() - started) / 1000);
      logger.error({ problems: result.problems, timeoutMs }, 'dependencies unavailable at boot');
      return exitWith(
        EXIT.UNAVAILABLE,
        `Dependencies unavailable after ${seconds} s (BOOT_DEPENDENCY_TIMEOUT_MS=${timeoutMs}):${listProblems(result.problems)}`,
      );
    }
  }
  health.starting();
  try {
    return await startService(config, logger, undefined, { beforeListen: () => health.close() });
  } catch (e) {
    // What only the server can tell (OUTBOX_TRANSPORT=wal without wal_level=logical): 78 as well.
    if (e instanceof ConfigError) {
      logger.error({ err: e.message }, 'the database refused this configuration');
      return exitWith(EXIT.CONFIG, e.message);
    }
    throw e;
  }
}

async function main(): Promise<void> {
  const config = loadConfigOrExit();
  const logger = createLogger({ level: config.core.LOG_LEVEL, name: 'payout-service' });
  routeProcessWarnings(logger);
  if (config.developmentValues.length > 0) {
    const variables = config.developmentValues.map((d) => d.variable);
    logger.warn(
      { deploymentMode: config.deployment.DEPLOYMENT_MODE, developmentDefaults: variables },
      `running on development defaults (${variables.join(', ')}): fine for development, refused by DEPLOYMENT_MODE=production`,
    );
  }
  const oneCallMs =
    config.providerClient.PROVIDER_CONNECT_TIMEOUT_MS +
    config.providerClient.PROVIDER_TRANSFER_HEADERS_TIMEOUT_MS;
  if (config.core.SHUTDOWN_GRACE_MS <= oneCallMs) {
    logger.warn(
      { graceMs: config.core.SHUTDOWN_GRACE_MS, oneCallMs },
      'SHUTDOWN_GRACE_MS is shorter than one transfer call: a deploy will leave calls to status checks',
    );
  }
  // Signals are handled from the start: the workers run (and may call the provider) while the
  // Kafka consumer joins its group, before the service is ready. A SIGTERM then waits for the
  // start to finish and drains as usual, instead of killing calls in flight; during the wait for
  // the dependencies it just stops waiting.
  const waiting = new AbortController();
  const starting = boot(config, logger, waiting.signal);
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down: draining in-flight work');
    waiting.abort();
    const force = setTimeout(() => {
      logger.error({ graceMs: config.core.SHUTDOWN_GRACE_MS }, 'shutdown grace period exceeded; exiting');
      process.exit(1);
    }, config.core.SHUTDOWN_GRACE_MS);
    force.unref();
    starting
      .then((service) => service?.close())
      .then(
        () => {
          logger.info('stopped');
          process.exit(0);
        },
        (e: unknown) => {
          logger.error({ err: e }, 'error during shutdown');
          process.exit(1);
        },
      );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  const service = await starting;
  if (service) logger.info({ url: service.url }, 'payout service started');
}

main().catch((e: unknown) => {
  process.stderr.write(
    `payout service failed to start: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`,
  );
  process.exit(1);
});
