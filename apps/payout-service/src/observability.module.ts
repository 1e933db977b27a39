import {
  Global,
  Inject,
  Injectable,
  Module,
  type DynamicModule,
  type OnApplicationShutdown,
  type OnModuleInit,
} from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { type Kafka } from 'kafkajs';
import type pg from 'pg';
import { Counter, Gauge, type Registry } from 'prom-client';
import { topicName } from '#contracts';
import { PG_POOL } from '#database';
import {
  ConsumerHealthIndicator,
  KafkaHealthIndicator,
  PostgresHealthIndicator,
  PROVIDER_ACCESS,
  ProviderHealthIndicator,
} from '#health';
import { LedgerStatsRepository } from '#ledger';
import { CONSUMER_FAILURES, type ConsumerFailures, ConsumerLagReader, KAFKA } from '#messaging';
import { METRICS_REGISTRY } from '#observability';
import { cachedSource, FundsGauges, FundsView, PipelineGauges } from '#pipeline';
import { ProviderAccessState, ProviderPort } from '#provider-client';
import { SERVICE_CONFIG } from './infrastructure.module.js';
import { consumerGroups } from './consumer-groups.js';
import { type ServiceConfig } from './service.config.js';

/**
 * Registers the gauges computed on scrape (ledger rows, oldest unclear row, consumer lag) and
 * feeds readiness with the provider's answers: every result of the pipeline's ProviderPort goes
 * to ProviderAccessState, which the `provider` health check reads. `payouts_readiness{check}`
 * repeats the /health/ready checks on scrape, so Prometheus sees readiness without probing it.
 */
@Injectable()
class ObservabilityWiring implements OnModuleInit, OnApplicationShutdown {
  private readonly lags: ConsumerLagReader[];

  constructor(
    @Inject(SERVICE_CONFIG) config: ServiceConfig,
    @Inject(METRICS_REGISTRY) private readonly registry: Registry,
    @Inject(PG_POOL) pool: pg.Pool,
    @Inject(KAFKA) kafka: Kafka,
    @Inject(ProviderAccessState) private readonly access: ProviderAccessState,
    @Inject(CONSUMER_FAILURES) failures: ConsumerFailures,
    private readonly moduleRef: ModuleRef,
  ) {
    this.readinessGauge(registry);
    this.consumerGauges(registry, failures);
    consumerLifeMetrics(
      registry,
      failures,
      consumerGroups(config).map((g) => g.groupId),
    );
    const state = this.access;
    new Gauge({
      name: 'payouts_provider_fatal_config_accounts',
      help: 'Provider accounts whose latest telling answer was a configuration fault (bad credentials, IP not whitelisted, APIs not enabled)',
      registers: [registry],
      collect() {
        this.set(state.problems().length);
      },
    });
    const prefix = config.core.KAFKA_TOPIC_PREFIX;
    // One reader per consumer group bootstrap.ts gives a Kafka transport.
    this.lags = consumerGroups(config).map(
      (g) => new ConsumerLagReader(kafka, g.groupId, new Map([[topicName(prefix, g.topic), g.topic]])),
    );
    const ledger = new LedgerStatsRepository();
    const lags = this.lags;
    new PipelineGauges(registry, {
      ledger: () => ledger.snapshot(pool),
      settled: () => ledger.settledCounts(pool),
      consumerLag:
        lags.length > 0
          ? async () => new Map((await Promise.all(lags.map((l) => l.read()))).flatMap((m) => [...m]))
          : undefined,
    });
  }

  /** A partition whose batch keeps failing is stalled: these show it without reading logs. */
  private consumerGauges(registry: Registry, failures: ConsumerFailures): void {
    new Gauge({
      name: 'payouts_consumer_failing_partitions',
      help: 'Partitions of a consumed topic whose latest batch failed and has not been committed since (the partition is stalled behind it), by topic',
      labelNames: ['topic'],
      registers: [registry],
      collect() {
        this.reset();
        // 0 for every topic that ever failed, so an alert sees the partition recover.
        const byTopic = new Map<string, number>([...failures.totalFailures().keys()].map((t) => [t, 0]));
        for (const f of failures.stalled()) byTopic.set(f.topic, (byTopic.get(f.topic) ?? 0) + 1);
        for (const [topic, n] of byTopic) this.set({ topic }, n);
      },
    });
    const reported = new Map<string, number>();
    new Counter({
      name: 'payouts_consumer_batch_failures_total',
      help: 'Batch deliveries whose handler or offset commit failed (the batch is delivered again), by topic',
      labelNames: ['topic'],
      registers: [registry],
      collect() {
        for (const [topic, n] of failures.totalFailures()) {
          const delta = n - (reported.get(topic) ?? 0);
          if (delta > 0) this.inc({ topic }, delta);
          reported.set(topic, n);
        }
      },
    });
  }

  private readinessGauge(registry: Registry): void {
    const checks = async (): Promise<Record<string, number>> => {
      const get = <T>(t: new (...a: never[]) => T): T => this.moduleRef.get(t, { strict: false });
      const up = async (key: string, check: () => PromiseLike<object> | object): Promise<void> => {
        try {
          const r = ((await check()) as Record<string, { status?: string } | undefined>)[key];
          out[key] = r?.status === 'up' ? 1 : 0;
        } catch {
          out[key] = 0;
        }
      };
      const out: Record<string, number> = {};
      await Promise.all([
        up('postgres', () => get(PostgresHealthIndicator).check()),
        up('kafka', () => get(KafkaHealthIndicator).check()),
        up('provider', () => get(ProviderHealthIndicator).check()),
        up('consumer', () => get(ConsumerHealthIndicator).check()),
      ]);
      return out;
    };
    const read = cachedSource(checks, { postgres: 0, kafka: 0, provider: 0, consumer: 0 }, 5_000);
    new Gauge({
      name: 'payouts_readiness',
      help: 'The /health/ready checks as seen on scrape: 1 up, 0 down, per check (postgres, kafka, provider, consumer)',
      labelNames: ['check'],
      registers: [registry],
      async collect() {
        for (const [check, v] of Object.entries(await read())) this.set({ check }, v);
      },
    });
  }

  onModuleInit(): void {
    // What each account has committed (issue 32): the pipeline's view, on scrape.
    new FundsGauges(this.registry, this.moduleRef.get(FundsView, { strict: false }));
    const provider = this.moduleRef.get(ProviderPort, { strict: false });
    provider.onResult((accountId, result) => this.access.record(accountId, result));
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.all(this.lags.map((l) => l.close()));
  }
}

/**
 * A group's consumer that crashed and is not back in its group reads nothing while the process
 * looks alive (the chaos run of 2026-11-27: 3,865 commands never read); these show it.
 */
function consumerLifeMetrics(
  registry: Registry,
  failures: ConsumerFailures,
  groups: readonly string[],
): void {
  new Gauge({
    name: 'payouts_consumer_stopped_seconds',
    help: "Seconds since a consumer group's consumer crashed without joining its group again (0 while it runs), by group",
    labelNames: ['group'],
    registers: [registry],
    collect() {
      this.reset();
      const now = Date.now();
      for (const group of groups) this.set({ group }, 0);
      for (const s of failures.stoppedConsumers())
        this.set({ group: s.groupId }, (now - s.since.getTime()) / 1000);
    },
  });
  const reported = new Map<string, number>();
  new Counter({
    name: 'payouts_consumer_recreations_total',
    help: 'Consumers replaced by a fresh one (same group and topics) after a crash kafkajs does not restart, by group',
    labelNames: ['group'],
    registers: [registry],
    collect() {
      for (const [group, n] of failures.recreations()) {
        const delta = n - (reported.get(group) ?? 0);
        if (delta > 0) this.inc({ group }, delta);
        reported.set(group, n);
      }
    },
  });
}

@Global()
@Module({})
export class ObservabilityModule {
  static forRoot(): DynamicModule {
    return {
      module: ObservabilityModule,
      providers: [
        { provide: ProviderAccessState, useValue: new ProviderAccessState() },
        { provide: PROVIDER_ACCESS, useExisting: ProviderAccessState },
        ObservabilityWiring,
      ],
      exports: [ProviderAccessState, PROVIDER_ACCESS],
    };
  }
}
