import { ConfigError, EXIT } from '#config';
import { createLogger, routeProcessWarnings } from '#observability';
import { startService } from './bootstrap.js';
import { loadServiceConfig } from './service.config.js';

async function main(): Promise<void> {
  let config;
  try {
    config = loadServiceConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      process.stderr.write(`${e.message}\n`);
      process.exit(EXIT.CONFIG);
    }
    throw e;
  }
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
  // start to finish and drains as usual, instead of killing calls in flight.
  const starting = startService(config, logger);
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down: draining in-flight work');
    const force = setTimeout(() => {
      logger.error({ graceMs: config.core.SHUTDOWN_GRACE_MS }, 'shutdown grace period exceeded; exiting');
      process.exit(1);
    }, config.core.SHUTDOWN_GRACE_MS);
    force.unref();
    starting
      .then((service) => service.close())
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
  logger.info({ url: service.url }, 'payout service started');
}

main().catch((e: unknown) => {
  process.stderr.write(
    `payout service failed to start: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`,
  );
  process.exit(1);
});
