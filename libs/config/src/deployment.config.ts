import { defineSection, env, envVar, type SectionValues } from './config-section.js';

export const DEPLOYMENT_MODES = ['development', 'production'] as const;
export type DeploymentMode = (typeof DEPLOYMENT_MODES)[number];

/**
 * How strict the boot is. `development` (the default, so `npm run demo` and the tests need no
 * setup) runs on the built-in development values and says so in one warning; `production` refuses
 * every one of them (docs/OPERATIONS.md, "Deployment mode"). The image and the Helm chart set
 * production; nothing else needs to.
 */
export const deploymentConfig = defineSection('deployment', {
  DEPLOYMENT_MODE: envVar({
    schema: env.enumOf(DEPLOYMENT_MODES),
    default: 'development',
    description:
      "`production` refuses at boot (exit 78, one list of problems) every development default: the ledger's development key, the sandbox's client id and secret, sandbox or plain-http provider hosts, the local database and broker; `development` runs on them with one warning naming each. The container image sets `production`",
  }),
  BOOT_DEPENDENCY_TIMEOUT_MS: envVar({
    schema: env.positiveInt(),
    default: '60000',
    description:
      'How long the boot waits for PostgreSQL and Kafka (retrying with backoff, /health/live up, /health/ready 503 naming what it waits for) before it exits 69 (EX_UNAVAILABLE) for the orchestrator to restart it; a database that does not exist or refuses our credentials exits 78 at once',
  }),
});

export type DeploymentConfig = SectionValues<typeof deploymentConfig.vars>;
