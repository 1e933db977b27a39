import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { type Kafka } from 'kafkajs';
import pg from 'pg';
import { TOPICS, topicName } from '#contracts';
import {
  CONSUMER_FAILURES,
  type ConsumerFailures,
  ensureTopics,
  KAFKA,
  KafkaBatchTransport,
} from '#messaging';
import {
  createLogger,
  NestPinoLogger,
  tracingFromConfig,
  type AppLogger,
  type Tracing,
} from '#observability';
import { prepareWalOutbox } from '#outbox';
import { WebhookIntake, webhookListenerSettings } from '#pipeline';
import { consumerGroups } from './consumer-groups.js';
import { ProblemDetailsFilter } from './problem.filter.js';
import { type ServiceConfig } from './service.config.js';
import { ServiceModule } from './service.module.js';
import { startWebhooksServer, type WebhooksServer } from './webhooks-server.js';

export interface ServiceApp {
  readonly app: NestFastifyApplication;
  readonly logger: AppLogger;
  /** The address /health and /metrics listen on. */
  readonly url: string;
  /** The webhook listener's address (role `webhooks` only): the one port meant for the provider. */
  readonly webhooksUrl?: string;
  readonly tracing: Tracing;
  close(): Promise<void>;
}

/**
 * Builds and starts the service: HTTP (health, metrics) and the Kafka transport. Used by main.ts
 * and by integration tests, which pass their own config (database, topic prefix, port 0) and
 * may pass their own tracing (an in-memory exporter). Default: from the config (off unless an
 * OTLP endpoint is set). Closing the service flushes and stops the tracing it was given.
 */
export async function startService(
  config: ServiceConfig,
  logger?: AppLogger,
  givenTracing?: Tracing,
  options: {
    /** Called right before the application listens on HTTP_PORT: main.ts closes its boot health listener there. */
    readonly beforeListen?: () => Promise<void>;
  } = {},
): Promise<ServiceApp> {
  const log = logger ?? createLogger({ level: config.core.LOG_LEVEL, name: 'payout-service' });
  // Before anything writes an event: the slot must exist first (ADR 0023). Throws ConfigError.
  if (config.outbox.OUTBOX_TRANSPORT === 'wal') await prepareWalTransport(config, log);
  const tracing = givenTracing ?? (await tracingFromConfig(config.tracing));
  if (tracing.enabled) log.info({ serviceName: config.tracing.OTEL_SERVICE_NAME }, 'tracing on (OTLP)');
  const app = await NestFactory.create<NestFastifyApplication>(
    ServiceModule.forRoot(config, log, tracing),
    new FastifyAdapter({ bodyLimit: 1_048_576, routerOptions: { ignoreTrailingSlash: true } }),
    { logger: new NestPinoLogger(log), bufferLogs: false, abortOnError: false },
  );
  // Every HTTP error of /ops answers RFC 9457 problem details (one filter for all of them).
  app.useGlobalFilters(new ProblemDetailsFilter(app.getHttpAdapter(), log));
  const kafka = app.get<Kafka>(KAFKA);
  // Every instance makes sure its topics exist (auto-creation is off on the broker).
  await ensureTopics(
    kafka,
    Object.values(TOPICS).map((t) => ({
      topic: topicName(config.core.KAFKA_TOPIC_PREFIX, t),
      numPartitions: 6,
    })),
  );
  for (const group of consumerGroups(config)) {
    app.connectMicroservice(
      {
        strategy: new KafkaBatchTransport({
          kafka,
          groupId: group.groupId,
          patterns: [group.topic],
          fromBeginning: group.fromBeginning,
          topicFor: (pattern) => topicName(config.core.KAFKA_TOPIC_PREFIX, pattern),
          partitionsConsumedConcurrently: config.core.KAFKA_PARTITIONS_CONCURRENCY,
          sessionTimeoutMs: config.core.KAFKA_SESSION_TIMEOUT_MS,
          heartbeatIntervalMs: config.core.KAFKA_HEARTBEAT_INTERVAL_MS,
          logger: log,
          failures: app.get<ConsumerFailures>(CONSUMER_FAILURES),
          tracing,
        }),
      },
      { inheritAppConfig: true },
    );
  }
  await app.startAllMicroservices();
  await options.beforeListen?.();
  await app.listen(config.core.HTTP_PORT, '0.0.0.0');
  const address = app.getHttpServer().address();
  const port = typeof address === 'object' && address ? address.port : config.core.HTTP_PORT;
  let webhooks: WebhooksServer | undefined;
  if (config.pipeline.SERVICE_ROLES.includes('webhooks')) {
    try {
      webhooks = await startWebhooksServer(
        app.get(WebhookIntake),
        config.webhooks.WEBHOOKS_PORT,
        log,
        webhookListenerSettings(config.webhooks),
      );
    } catch (e) {
      await app.close();
      throw e;
    }
  }
  return {
    app,
    logger: log,
    url: `http://127.0.0.1:${port}`,
    webhooksUrl: webhooks?.url,
    tracing,
    // The webhook listener closes first: a webhook refused during shutdown is sent again.
    close: async () => {
      await webhooks?.close();
      await app.close();
      await tracing.shutdown().catch((e: unknown) => log.warn({ err: e }, 'flushing traces failed'));
    },
  };
}

/** Checks the server and creates the slot of OUTBOX_TRANSPORT=wal on a connection of its own. */
async function prepareWalTransport(config: ServiceConfig, log: AppLogger): Promise<void> {
  const client = new pg.Client({ connectionString: config.core.DATABASE_URL });
  client.on('error', () => undefined);
  await client.connect();
  try {
    await prepareWalOutbox(client, config.outbox.OUTBOX_WAL_SLOT, log.child({ component: 'wal-relay' }));
  } finally {
    await client.end().catch(() => undefined);
  }
}
