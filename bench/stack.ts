/**
 * The service under test: one fresh database (cloned from the run's migrated template), its own
 * topics, and one or more service processes on them, each with its roles (SERVICE_ROLES), all in
 * one consumer group (same KAFKA_CLIENT_ID). Each process's memory is sampled from its start.
 */
import { type ChildProcess } from 'node:child_process';
import { type Kafka } from 'kafkajs';
import { TOPICS, topicName } from '#contracts';
import { ensureTopics } from '#messaging';
import { fundsHoldEnv } from './funds-hold.js';
import { type Launch } from './profile-run.js';
import { type Results } from './table.js';
import {
  dropDatabase,
  freePort,
  freshDatabase,
  type MemoryFigures,
  RssSampler,
  startNode,
  stopNode,
  waitHttp,
} from './support.js';
import { SERVICE_NODE_FLAGS } from '../apps/payout-service/src/node-flags.js';

export interface BenchEnv {
  readonly kafka: Kafka;
  readonly brokers: readonly string[];
  /** The run's migrated template database. */
  readonly template: string;
  readonly partitions: number;
}

/** What a phase gets for one run (one round of the whole sequence). */
export interface RoundContext {
  /** 0-based. */
  readonly round: number;
  readonly runs: number;
  /** Unique to this run and round: for topic prefixes, group ids, transfer ids. */
  readonly tag: string;
  /** A sandbox started for this round (rate limits off, zero latency, a large balance). */
  readonly sandboxUrl: string;
  readonly sandboxPid: number | undefined;
  readonly env: BenchEnv;
  /** The figures so far (this round's earlier phases included), for ratios within the round. */
  readonly results: Results;
}

/** All pipeline roles but queries (the bench sends no query). */
export const PIPELINE_ROLES = 'intake,executor,reconciler,relay';

export async function createTopics(env: BenchEnv, names: readonly string[]): Promise<void> {
  await ensureTopics(
    env.kafka,
    names.map((topic) => ({ topic, numPartitions: env.partitions })),
  );
}

/** The service's topics under `prefix`, plus `extra` ones. */
export async function serviceTopics(env: BenchEnv, prefix: string, extra: string[] = []): Promise<void> {
  await createTopics(
    env,
    [...Object.values(TOPICS), ...extra].map((t) => topicName(prefix, t)),
  );
}

/** Deletes the topics whose names contain `part` (a phase's prefix, a round's tag); best effort. */
export async function deleteTopics(kafka: Kafka, part: string): Promise<void> {
  const admin = kafka.admin();
  try {
    await admin.connect();
    const mine = (await admin.listTopics()).filter((t) => t.includes(part));
    if (mine.length > 0) await admin.deleteTopics({ topics: mine, timeout: 30_000 });
  } catch (e) {
    console.warn(`  (could not delete the topics of ${part}: ${e instanceof Error ? e.message : String(e)})`);
  } finally {
    await admin.disconnect();
  }
}

/** Waits until a consumer group is Stable with `members` members (assignment done, no rebalance). */
export async function waitGroup(
  kafka: Kafka,
  groupId: string,
  members: number,
  timeoutMs = 60_000,
): Promise<void> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const { groups } = await admin.describeGroups([groupId]);
      const g = groups[0];
      if (g && g.state === 'Stable' && g.members.length === members) return;
      if (Date.now() > deadline)
        throw new Error(
          `consumer group ${groupId}: ${g?.state ?? 'unknown'} with ${g?.members.length ?? 0} members, expected Stable with ${members}, after ${timeoutMs} ms`,
        );
      await new Promise((r) => setTimeout(r, 100));
    }
  } finally {
    await admin.disconnect();
  }
}

export interface Service {
  readonly roles: string;
  readonly url: string;
  readonly proc: ChildProcess;
  readonly memory: RssSampler;
  /** Resident memory once ready (and owning its partitions), before any load: MB. */
  atRestMB?: number | undefined;
}

export interface Stack {
  readonly dbUrl: string;
  /** The database's name (its backends' CPU is the phase's Postgres). */
  readonly dbName: string;
  readonly prefix: string;
  readonly services: readonly Service[];
  /** Reads every process's memory (before it exits), then stops them; the database stays. */
  stopServices(): Promise<MemoryFigures[]>;
  /** Stops what is still running, drops the database and deletes the topics. */
  stop(): Promise<void>;
}

export interface StackOptions {
  readonly dbName: string;
  readonly prefix: string;
  /** One entry per process: its SERVICE_ROLES. */
  readonly roles: readonly string[];
  readonly sandboxUrl: string;
  /** How to start the first process (the profiler, in BENCH_PROFILE mode). */
  readonly launch?: Launch;
  /**
   * Run on this database as it is (a prefilled ledger, bench/growth.bench.ts) instead of a fresh
   * clone of the template named `dbName`; `stop()` then leaves it.
   */
  readonly existingDatabaseUrl?: string;
}

function serviceEnv(
  env: BenchEnv,
  o: StackOptions,
  dbUrl: string,
  port: number,
  roles: string,
): Record<string, string> {
  return {
    DATABASE_URL: dbUrl,
    DATABASE_POOL_SIZE: '20',
    KAFKA_BROKERS: env.brokers.join(','),
    KAFKA_TOPIC_PREFIX: o.prefix,
    // The same client id for every process: one consumer group (`<client id>.intake`).
    KAFKA_CLIENT_ID: o.prefix,
    HTTP_PORT: String(port),
    LOG_LEVEL: 'warn',
    SERVICE_ROLES: roles,
    PROVIDER_BASE_URL: o.sandboxUrl,
    PROVIDER_PAYOUT_URL: o.sandboxUrl,
    // Production defaults are the provider's published limits (~150/s); the sandbox has none here.
    // Per process: two processes do not share (or split) these.
    PROVIDER_RATE_TRANSFER_PER_MIN: '600000',
    PROVIDER_RATE_STATUS_PER_MIN: '600000',
    PROVIDER_RATE_AUTHORIZE_PER_MIN: '600000',
    PROVIDER_RATE_DEFAULT_PER_MIN: '600000',
    EXECUTOR_CONCURRENCY: '128',
    EXECUTOR_IDLE_POLL_MS: '20',
    OUTBOX_POLL_INTERVAL_MS: '200',
    // BENCH_OUTBOX_TRANSPORT=wal: events through the WAL (ADR 0023; BENCH_DATABASE_URL's server
    // needs wal_level=logical). One slot per bench database: slot names are per server.
    OUTBOX_TRANSPORT: process.env['BENCH_OUTBOX_TRANSPORT'] ?? 'table',
    OUTBOX_WAL_SLOT: `outbox_${o.dbName}`.replace(/[^a-z0-9_]/g, '_').slice(0, 63),
    // BENCH_FUNDS_HOLD=1: holding for funds on for the bench's account (bench/funds-hold.ts).
    ...fundsHoldEnv(),
  };
}

/** Starts the processes on a fresh database and waits until they are ready and own the partitions. */
export async function startStack(env: BenchEnv, o: StackOptions): Promise<Stack> {
  const dbUrl = o.existingDatabaseUrl ?? (await freshDatabase(o.dbName, env.template));
  await serviceTopics(env, o.prefix);
  const services: Service[] = [];
  const launches = o.roles.map((_, i) => (i === 0 && o.launch ? o.launch : { nodeArgs: [], env: {} }));
  let stopped: Promise<MemoryFigures[]> | undefined;
  const stopServices = (): Promise<MemoryFigures[]> => {
    stopped ??= (async () => {
      const memory = services.map((s) => s.memory.stop());
      // A profiled service writes its profile on the way out: give it time to.
      await Promise.all(
        services.map((s, i) => stopNode(s.proc, (launches[i]?.nodeArgs.length ?? 0) > 0 ? 60_000 : 10_000)),
      );
      return memory;
    })();
    return stopped;
  };
  const stack: Stack = {
    dbUrl,
    dbName: o.dbName,
    prefix: o.prefix,
    services,
    stopServices,
    async stop() {
      await stopServices();
      if (o.existingDatabaseUrl === undefined) await dropDatabase(o.dbName);
      await deleteTopics(env.kafka, o.prefix);
    },
  };
  try {
    for (const [i, roles] of o.roles.entries()) {
      const port = await freePort();
      const launch = launches[i] ?? { nodeArgs: [], env: {} };
      const proc = startNode(
        'dist/apps/payout-service/src/main.js',
        { ...serviceEnv(env, o, dbUrl, port, roles), ...launch.env },
        // As the image runs it (apps/payout-service/src/node-flags.ts).
        [...SERVICE_NODE_FLAGS, ...launch.nodeArgs],
      );
      if (proc.pid === undefined) throw new Error('the service did not start');
      services.push({ roles, url: `http://127.0.0.1:${port}`, proc, memory: new RssSampler(proc.pid) });
    }
    await Promise.all(services.map((s) => waitHttp(`${s.url}/health/ready`)));
    const consumers = o.roles.filter((r) => r.split(',').includes('intake')).length;
    if (consumers > 0) await waitGroup(env.kafka, `${o.prefix}.intake`, consumers);
    for (const s of services) s.atRestMB = s.memory.current();
    return stack;
  } catch (e) {
    await stack.stop();
    throw e;
  }
}
