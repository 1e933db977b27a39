import { ConfigError, EXIT, loadConfig, providerHostsConfig } from '#config';
import { createLogger } from '#observability';
import { optionsFromConfig, sandboxConfig, startSandbox } from '#sandbox';

/** Composition root: read the environment, start the sandbox, stop on SIGTERM/SIGINT. */
function loadOrExit() {
  try {
    return loadConfig([providerHostsConfig, sandboxConfig]);
  } catch (e) {
    // The same way as the service: one list of every problem and exit 78 (EX_CONFIG), no stack.
    if (!(e instanceof ConfigError)) throw e;
    process.stderr.write(`${e.message}\n`);
    process.exit(EXIT.CONFIG);
  }
}
const [hosts, cfg] = loadOrExit();
const logger = createLogger({ level: cfg.SANDBOX_LOG_LEVEL, name: 'provider-sandbox' });
const sandbox = await startSandbox({
  ...optionsFromConfig(cfg, process.env.SANDBOX_ALLOWED_IPS),
  port: hosts.SANDBOX_PORT,
  host: cfg.SANDBOX_HOST,
  logger,
});
logger.info({ url: sandbox.url, clientId: sandbox.clientId }, 'provider sandbox listening');

const stop = (signal: string): void => {
  logger.info({ signal }, 'provider sandbox stopping');
  sandbox.close().then(
    () => process.exit(0),
    (err: unknown) => {
      logger.error({ err }, 'provider sandbox failed to stop');
      process.exit(1);
    },
  );
};
process.once('SIGTERM', () => stop('SIGTERM'));
process.once('SIGINT', () => stop('SIGINT'));
