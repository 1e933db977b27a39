import { copyFile, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import pg from 'pg';
import { Kafka, logLevel, type Producer } from 'kafkajs';
import { MAX_COMMAND_BYTES, TOPICS, topicName } from '#contracts';
import { ensureDatabase, runMigrations } from '#database';
import { ensureTopics } from '#messaging';
import { TEST_ACCOUNTS } from '#sandbox';
import { type ChaosConfig } from './config.js';
import {
  chaosAccounts,
  commandKey,
  CHAOS_DEAD_LETTER_KEY,
  conflicting,
  hostileMessage,
  keyOf,
  planCommands,
  planOne,
  Random,
  type ChaosAccount,
  type Hostile,
  type PlannedCommand,
  type SandboxFixtures,
  type Send,
} from './generate.js';
import {
  ensureDir,
  NodeProcess,
  PrivatePostgres,
  REPO,
  sleep,
  tcpOpen,
  until,
  waitForHttp,
  WebhookBalancer,
} from './infra.js';
import {
  analyseDeadLetters,
  analyseEvents,
  check,
  consumerLag,
  isTerminal,
  negativesPublished,
  providerAgreement,
  readTopic,
  wrongTerminals,
  type Check,
  type ProviderOutcome,
} from './observe.js';
import { keptSection, list, renderReport, type Figures } from './report.js';
import { attentionLeft, attentionOverBudget, per10k, unraisedContradictions } from './negatives.js';
import {
  entryReuseViolations,
  FUND_EVERY_MS,
  LifecycleDriver,
  lifecycleNotHappened,
  lifecycleOf,
  lifecycleOutcomes,
  withEntryIdReuse,
} from './lifecycle.js';
import { chaosHappenedSummary, chaosNotHappened, type FaultView, type StepRecord } from './happened.js';
import {
  FundsDriver,
  fundsChecks,
  fundsServiceEnv,
  FUNDS_ACCOUNT,
  FUNDS_CHARGE,
  FUNDS_START,
} from './funds-run.js';

const execute = promisify(execFile);
const PREFIX = 'chaos';
const CLIENT_ID = 'payouts-chaos';
const GROUP = `${CLIENT_ID}.intake`;
const LOG_DIR = join(REPO, '.run/logs/chaos');
const DATA_DIR = join(REPO, '.run/chaos');

/** Fast settings so unclear payouts resolve in run time (as test/support/stack.ts FAST_RECONCILE). */
const FAST_RECONCILE = {
  RECONCILE_SCHEDULE: '300ms,500ms,1s,1s,2s,2s,3s,5s',
  REVERSAL_WATCH_SCHEDULE: '2s,5s',
  // The reversal watch's schedule alone (its working days would keep a SUCCESS watched for days).
  REVERSAL_WATCH_WORKING_DAYS: '0',
  RECONCILER_POLL_MS: '200',
  RESEND_DELAY_MS: '300',
  // Longer than the longest late apply (LATE_APPLY_MS.max) and status lag (STATUS_LAG_MS) the run
  // injects: the service settles an internal transfer the status endpoint has not known for this
  // long as not received (FAILED), so a shorter window would make the run's own faults pay a
  // transfer the service has already called FAILED.
  NOT_FOUND_SETTLE_MS: '12000',
  // A "not received" FAILED is watched (ADR 0018) within the run, so a contradiction would show.
  FAILED_WATCH_SCHEDULE: '1s,3s,10s',
  // Issue 29: a refused re-send goes to a person after this (as NOT_FOUND_SETTLE_MS, longer than the
  // run's late applies and status lag), and a payout handed to a person is still asked about, so
  // one the provider settles meanwhile leaves the queue by itself within the run.
  REFUSED_RESEND_SETTLE_MS: '12000',
  ATTENTION_WATCH_SCHEDULE: '1s,2s,3s,5s',
  // The provider's long waits (--lifecycle): checked within the run, not hourly.
  QUEUED_CHECK_SCHEDULE: '1s,2s',
  APPROVAL_PENDING_CHECK_SCHEDULE: '1s,2s',
  NEXT_WORKING_DAY_CHECK_SCHEDULE: '1s,2s',
  EXECUTOR_IDLE_POLL_MS: '50',
  OUTBOX_POLL_INTERVAL_MS: '200',
};

/** A duration of a schedule setting ('300ms', '2s', '15m', '1h') in ms. */
function durationMs(x: string): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)$/.exec(x.trim());
  if (!m) throw new Error(`chaos config: not a duration: ${x}`);
  return Number(m[1]) * { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 }[m[2] as 'ms' | 's' | 'm' | 'h'];
}

/**
 * How long after a negative state its contradiction may be raised (issue 29 (a)): the longest
 * watch schedule the run gives the services (every `*_WATCH_SCHEDULE`), plus a minute for a kill,
 * a broker restart and the reconciler's poll delaying the check that sees it.
 */
const CONTRADICTION_WATCH_MS =
  Math.max(
    ...Object.entries(FAST_RECONCILE)
      .filter(([k]) => k.endsWith('_WATCH_SCHEDULE'))
      .map(([, v]) => v.split(',').reduce((a, d) => a + durationMs(d), 0)),
  ) + 60_000;

/**
 * The provider's slowness the run injects (random fault kinds `applyLater`, `statusLag`,
 * `refuseResend`; sandbox clock, which runs in real time here): a call answered by a reset and
 * applied 2-8 s later, and a status endpoint that does not know an applied transfer for 4 s.
 * Both stay below NOT_FOUND_SETTLE_MS (checked at start).
 */
const LATE_APPLY_MS = { min: 2_000, max: 8_000 };
const STATUS_LAG_MS = 4_000;
if (Number(FAST_RECONCILE.NOT_FOUND_SETTLE_MS) <= Math.max(LATE_APPLY_MS.max, STATUS_LAG_MS)) {
  throw new Error(
    'chaos config: NOT_FOUND_SETTLE_MS must be longer than the longest late apply and status lag',
  );
}

/** The sandbox's batch delay: a batch's entries take their money this long after it is accepted. */
const BATCH_DELAY_MS = 500;

/**
 * Share of the v2 account's commands that reuse the transferId of one of the primary account's:
 * the service, the provider and every check must keep them apart (a transfer id is unique per
 * account only).
 */
const TWIN_RATE = 0.05;

/**
 * SIGTERM's grace in the run: longer than one transfer call (connect 3 s + the run's headers
 * timeout of twice the lease), so a rolling restart lets calls finish; the check holds each
 * instance to it.
 */
const SHUTDOWN_GRACE_MS = 30_000;
/**
 * How long a restarted instance may take to be ready before the run counts it as never ready
 * (they take seconds): the run goes on to its checks instead of waiting out the test's timeout.
 */
const READY_TIMEOUT_MS = 120_000;

export interface ChaosResult {
  readonly checks: readonly Check[];
  readonly figures: Figures;
  readonly report: string;
  readonly passed: number;
  readonly failed: number;
}

interface Restart {
  readonly instance: string;
  readonly cause: 'SIGKILL' | 'SIGTERM' | 'crash';
  readonly at: number;
  /** The instance's start number this restart made (its log's `start #n`). */
  readonly starts: number;
  readyMs?: number;
  firstWorkMs?: number;
  /**
   * Not ready before the instance was started again: a chaos kill chose it while it was still
   * starting, or it exited by itself (e.g. the broker was down at boot) and the supervisor started
   * it again. The later start is judged instead; the last start of each instance always is.
   */
  superseded?: boolean;
}

class Broker {
  constructor(
    readonly port: number,
    private readonly dataDir: string,
  ) {}

  private async kafka(action: string): Promise<void> {
    await execute('bash', [join(REPO, 'tools/kafka/kafka.sh'), action], {
      env: {
        ...process.env,
        KAFKA_PORT: String(this.port),
        KAFKA_DATA_DIR: this.dataDir,
        KAFKA_HEAP_OPTS: '-Xms256m -Xmx512m',
      },
      timeout: 180_000,
    });
  }

  start = () => this.kafka('start');
  stop = () => this.kafka('stop');
}

/** Runs one chaos run from start to end and checks what it left behind. */
export async function runChaos(cfg: ChaosConfig, say: (line: string) => void): Promise<ChaosResult> {
  const started = Date.now();
  const t = () => `${((Date.now() - started) / 1000).toFixed(0).padStart(4)}s`;
  const log = (line: string) => say(`[chaos ${t()}] ${line}`);
  // Refused before anything starts: an unknown lifecycle fault, or one this sandbox cannot show.
  const lifecycle = lifecycleOf(cfg.lifecycle);
  const lifecycleExtra = lifecycleOutcomes(lifecycle);
  await ensureDir(LOG_DIR, true);
  await ensureDir(DATA_DIR, true);
  const r = new Random(cfg.seed);
  const ports = {
    postgres: cfg.basePort + 32,
    kafka: cfg.basePort + 92,
    sandbox: cfg.basePort + 80,
    services: [cfg.basePort + 81, cfg.basePort + 82],
    webhooks: cfg.basePort + 83,
    webhookListeners: [cfg.basePort + 84, cfg.basePort + 85],
  };
  const postgres = new PrivatePostgres(
    ports.postgres,
    join(LOG_DIR, 'postgres.log'),
    cfg.outboxTransport === 'wal' ? ['wal_level=logical'] : [],
  );
  const broker = new Broker(ports.kafka, join(DATA_DIR, `kafka-${ports.kafka}`));
  const kafka = new Kafka({
    clientId: 'chaos-harness',
    brokers: [`127.0.0.1:${ports.kafka}`],
    logLevel: logLevel.NOTHING,
    retry: { retries: 30, initialRetryTime: 300, maxRetryTime: 3_000 },
  });
  const processes: NodeProcess[] = [];
  const balancer = new WebhookBalancer(ports.webhooks, ports.webhookListeners);
  let producer: Producer | undefined;
  let pool: pg.Pool | undefined;
  let tornDown: Promise<void> | undefined;
  const teardown = () =>
    (tornDown ??= (async () => {
      for (const p of processes) p.onUnexpectedExit = undefined;
      await producer?.disconnect().catch(() => undefined);
      await pool?.end().catch(() => undefined);
      for (const p of processes) await p.close().catch(() => undefined);
      await balancer.close().catch(() => undefined);
      await broker.stop().catch(() => undefined);
      await copyFile(join(DATA_DIR, `kafka-${ports.kafka}`, 'broker.log'), join(LOG_DIR, 'broker.log')).catch(
        () => undefined,
      );
      await postgres.destroy().catch(() => undefined);
      await ensureDir(DATA_DIR, true).catch(() => undefined);
    })());
  // Interrupted: leave no cluster, broker or service behind.
  const interrupted = (signal: NodeJS.Signals) => {
    log(`${signal}: stopping everything the run started`);
    void teardown().finally(() => process.exit(130));
  };
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
  try {
    log(`seed ${cfg.seed}; logs in .run/logs/chaos/`);
    log(`starting PostgreSQL on ${ports.postgres} and Kafka on ${ports.kafka}`);
    // Both settle before a failure is thrown: teardown must not run while the broker is still
    // starting, or it stops nothing and the broker outlives the run (issue 24, finding 7).
    const infra = await Promise.allSettled([postgres.init(), broker.start()]);
    for (const r of infra) if (r.status === 'rejected') throw r.reason;
    const dbUrl = postgres.url('payouts_chaos');
    await ensureDatabase(dbUrl);
    await runMigrations(dbUrl);
    pool = new pg.Pool({ connectionString: dbUrl, max: 3 });
    pool.on('error', () => undefined);
    await ensureTopics(
      kafka,
      Object.values(TOPICS).map((topic) => ({ topic: topicName(PREFIX, topic), numPartitions: 6 })),
    );

    const sandboxUrl = `http://127.0.0.1:${ports.sandbox}`;
    // The service's public webhooks port, as the provider and anyone else sees it.
    await balancer.start();
    // The service has one webhook path per account and format: /webhooks/<version>/<accountId>.
    const webhookUrl = (version: string, accountId: string) =>
      `http://127.0.0.1:${ports.webhooks}/webhooks/${version}/${accountId}`;
    // One account per API generation, each its own merchant at the sandbox with its own webhooks.
    // Issue 32: a third account holds payouts for funds (test/chaos/funds.ts).
    const accounts = [
      ...chaosAccounts(cfg.webhookVersion === 'v2' ? 'v2' : 'v1'),
      ...(cfg.fundsHold ? [FUNDS_ACCOUNT] : []),
    ];
    const [primary, ...others] = accounts;
    if (!primary) throw new Error('chaos: no accounts');
    const accountOfClient = new Map(accounts.map((a) => [a.clientId, a.accountId]));
    /** The service account of a sandbox merchant (the sandbox names merchants by client id). */
    const accountOf = (clientId: string): string => accountOfClient.get(clientId) ?? `?${clientId}`;
    const forMerchant = (path: string, a: ChaosAccount): string =>
      `${sandboxUrl}${path}${path.includes('?') ? '&' : '?'}clientId=${encodeURIComponent(a.clientId)}`;
    const sandbox = new NodeProcess(
      'sandbox',
      'dist/apps/provider-sandbox/src/main.js',
      {
        SANDBOX_PORT: String(ports.sandbox),
        SANDBOX_HOST: '127.0.0.1',
        SANDBOX_PENDING_DELAY_MS: '2000',
        SANDBOX_HANG_MS: '2000',
        SANDBOX_BATCH_DELAY_MS: String(BATCH_DELAY_MS),
        SANDBOX_INITIAL_BALANCE: '9999999999.00',
        SANDBOX_RATE_LIMIT_TRANSFER: '0',
        SANDBOX_RATE_LIMIT_STATUS: '0',
        SANDBOX_RATE_LIMIT_AUTHORIZE: '0',
        SANDBOX_RATE_LIMIT_OTHER: '0',
        SANDBOX_LOG_LEVEL: 'warn',
        // Genuine webhooks of every transfer go to the service's public webhooks port, each
        // merchant's to its account's path in its own format.
        SANDBOX_CLIENT_ID: primary.clientId,
        SANDBOX_CLIENT_SECRET: primary.clientSecret,
        SANDBOX_WEBHOOK_URL: webhookUrl(primary.webhookVersion, primary.accountId),
        SANDBOX_WEBHOOK_VERSION: primary.webhookVersion,
        SANDBOX_MERCHANTS: JSON.stringify(
          others.map((a) => ({
            clientId: a.clientId,
            clientSecret: a.clientSecret,
            webhookUrl: webhookUrl(a.webhookVersion, a.accountId),
            webhookVersion: a.webhookVersion,
            // The held account's balance is limited and funded by the run; it refuses what does not fit.
            initialBalance: a.accountId === FUNDS_ACCOUNT.accountId ? FUNDS_START : '9999999999.00',
            // It charges a fee per transfer, which the account's FUNDS_HOLD fee counts.
            ...(a.accountId === FUNDS_ACCOUNT.accountId ? { transferCharge: FUNDS_CHARGE } : {}),
          })),
        ),
        SANDBOX_WEBHOOK_RETRY_BASE_MS: '1000',
      },
      join(LOG_DIR, 'sandbox.log'),
    );
    processes.push(sandbox);
    sandbox.start();
    await waitForHttp(`${sandboxUrl}/__sandbox/clock`, 30_000, () => sandbox.running);
    const fixtures = await prepareSandbox(sandboxUrl, accounts);

    const serviceEnv = (port: number, webhooksPort: number): Record<string, string> => ({
      DATABASE_URL: dbUrl,
      DATABASE_POOL_SIZE: '10',
      KAFKA_BROKERS: `127.0.0.1:${ports.kafka}`,
      KAFKA_TOPIC_PREFIX: PREFIX,
      KAFKA_CLIENT_ID: CLIENT_ID,
      HTTP_PORT: String(port),
      // Every role, the webhook listener included (behind the balancer).
      SERVICE_ROLES: 'intake,executor,reconciler,relay,queries,webhooks',
      WEBHOOKS_PORT: String(webhooksPort),
      WEBHOOKS_POLL_MS: '200',
      LOG_LEVEL: cfg.logLevel,
      PROVIDER_BASE_URL: sandboxUrl,
      PROVIDER_PAYOUT_URL: sandboxUrl,
      PROVIDER_ACCOUNT_ID: primary.accountId,
      PROVIDER_CLIENT_ID: primary.clientId,
      PROVIDER_CLIENT_SECRET: primary.clientSecret,
      PROVIDER_API_GENERATION: primary.api,
      // The sandbox's status endpoint knows internal transfers: confirmed for the automatic "not
      // received" FAILED on every account (off by default, issue 29).
      PROVIDER_NOT_RECEIVED_FAILS: 'true',
      PROVIDER_ACCOUNTS: JSON.stringify(
        others.map((a) => ({
          accountId: a.accountId,
          clientId: a.clientId,
          clientSecret: a.clientSecret,
          api: a.api,
          webhookVersion: a.webhookVersion,
          notReceivedFails: true,
        })),
      ),
      EXECUTOR_LEASE_MS: String(cfg.leaseMs),
      // Longer than the lease, so an answer slower than the lease still arrives.
      PROVIDER_TRANSFER_HEADERS_TIMEOUT_MS: String(cfg.leaseMs * 2),
      PROVIDER_HEADERS_TIMEOUT_MS: String(cfg.leaseMs * 2),
      SHUTDOWN_GRACE_MS: String(SHUTDOWN_GRACE_MS),
      // Hostile messages are found in the DLQ by their keyed digest (generate.ts).
      DEAD_LETTER_DIGEST_KEY: CHAOS_DEAD_LETTER_KEY,
      OUTBOX_TRANSPORT: cfg.outboxTransport,
      ...FAST_RECONCILE,
      ...(cfg.fundsHold ? fundsServiceEnv(cfg.variant) : {}),
    });
    const services = ports.services.map(
      (port, i) =>
        new NodeProcess(
          `service-${i + 1}`,
          'dist/apps/payout-service/src/main.js',
          serviceEnv(port, ports.webhookListeners[i] ?? 0),
          join(LOG_DIR, `service-${i + 1}.log`),
        ),
    );
    processes.push(...services);
    const readyUrl = (i: number) => `http://127.0.0.1:${ports.services[i] ?? 0}/health/ready`;
    for (const s of services) s.start();
    await Promise.all(services.map((s, i) => waitForHttp(readyUrl(i), 120_000, () => s.running)));
    log('sandbox and two service instances ready');

    // The plan: valid commands, their exact repeats and conflicting reuses shortly after them,
    // and hostile messages, all interleaved on the same partitions.
    const runTag = `C${cfg.seed.toString(36).toUpperCase()}X`;
    // The provider's real lifecycle (issue 29), off unless --lifecycle: its own generators, so a
    // run without it draws the same commands as before.
    const driver = new LifecycleDriver(
      lifecycle,
      sandboxUrl,
      accounts,
      forMerchant,
      new Random(cfg.seed + 29),
      new Set([FUNDS_ACCOUNT.accountId]),
    );
    // The held account gets one command in five (the other two two each); without it, as before.
    const two = accounts.filter((a) => a !== FUNDS_ACCOUNT).map((a) => a.accountId);
    const turns = cfg.fundsHold ? [...two, ...two, FUNDS_ACCOUNT.accountId] : two;
    const planned = await planCommands(cfg.commands, r, runTag, fixtures, turns, TWIN_RATE, lifecycleExtra);
    const reuseRandom = new Random(cfg.seed + 2929);
    const { commands, reused } = lifecycle.has('entry-id-reused')
      ? await withEntryIdReuse(planned, reuseRandom, (account, id) =>
          planOne('direct_transfer', account, id, reuseRandom, fixtures),
        )
      : { commands: planned, reused: new Set<string>() };
    // The checks that compare one payout with the provider's record of its id leave the reused ids
    // (both the entry and the single payout) to their own check.
    /** Every check keys a command by (account, id): `keyOf`. */
    const byKey = new Map(commands.map((c) => [commandKey(c), c]));
    const stream: Send[] = commands.map((c) => ({
      key: c.identity,
      value: Buffer.from(JSON.stringify(c.value)),
      identity: commandKey(c),
      role: 'command',
    }));
    const insertAfter = (i: number, s: Send) =>
      stream.splice(Math.min(stream.length, i + 1 + r.int(0, 150)), 0, s);
    const duplicates = Math.round(cfg.commands * cfg.duplicateRate);
    const conflicts = Math.round(cfg.commands * cfg.conflictRate);
    const conflicted = new Set<string>();
    for (let k = 0; k < duplicates + conflicts; k += 1) {
      const c = r.pick(commands);
      const i = stream.findIndex((s) => s.identity === commandKey(c));
      if (k < duplicates) {
        insertAfter(i, {
          key: c.identity,
          value: Buffer.from(JSON.stringify(c.value)),
          identity: commandKey(c),
          role: 'duplicate',
        });
      } else {
        conflicted.add(commandKey(c));
        insertAfter(i, {
          key: c.identity,
          value: Buffer.from(JSON.stringify(conflicting(c))),
          identity: commandKey(c),
          role: 'conflict',
        });
      }
    }
    const hostile: Hostile[] = [];
    for (let n = 0; n < cfg.hostile; n += 1) {
      const h = hostileMessage(n, r, runTag, MAX_COMMAND_BYTES);
      if (h.hostile) hostile.push(h.hostile);
      stream.splice(r.int(0, stream.length), 0, h);
    }
    const split = countBy(commands, (c) => c.account);
    const sharedIds = commands
      .filter((c) => c.account !== primary.accountId)
      .filter((c) => byKey.has(keyOf(primary.accountId, c.identity))).length;
    log(
      `plan: ${commands.length} commands (${[...split].map(([a, n]) => `${n} on account ${a}`).join(', ')}; ${sharedIds} ids on both), ${duplicates} duplicates, ${conflicts} conflicting reuses, ${hostile.length} hostile messages`,
    );

    // Faults on both merchants, each with its own seed.
    for (const [i, a] of accounts.entries()) {
      if (cfg.sabotage.split(',').includes('faults')) break;
      const faultSet = await fetch(forMerchant('/__sandbox/fault-mode', a), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        // Every kind: today's six, and late apply, lagging status, refusal on re-send (issue 21).
        body: JSON.stringify({
          rate: cfg.faultRate,
          seed: cfg.seed + i,
          lateMs: cfg.leaseMs + 2_000,
          lateApplyMs: LATE_APPLY_MS,
          lateApplyAnswer: 'reset',
          lagMs: STATUS_LAG_MS,
          // Only when asked: the sandbox on main refuses a field it does not know.
          ...(cfg.inDoubtApply > 0 ? { applyRate: cfg.inDoubtApply } : {}),
        }),
      });
      if (!faultSet.ok)
        throw new Error(`fault mode for ${a.accountId}: ${faultSet.status} ${await faultSet.text()}`);
    }
    await driver.setUp();
    // Issue 32: the held account is funded while commands arrive (test/chaos/funds.ts).
    const funds = cfg.fundsHold
      ? FundsDriver.of(commands, cfg.durationMs, sandboxUrl, forMerchant, () => pool)
      : undefined;
    funds?.start();
    let driving = driver.active;
    const drove = (async () => {
      while (driving) {
        await sleep(FUND_EVERY_MS);
        if (driving) await driver.tick().catch((e: unknown) => log(`lifecycle tick failed: ${String(e)}`));
      }
    })();

    // Hostile webhooks at a steady rate on the public port while commands arrive, each merchant's
    // captures at its own account's paths (the rate shared between them); the merchant re-enables
    // the webhook endpoint from the dashboard when the provider disabled it (after more than five
    // failures in a row, e.g. while Postgres restarts).
    if (cfg.hostileWebhooks > 0) {
      for (const [i, a] of accounts.entries()) {
        await fetch(forMerchant('/__sandbox/webhooks/hostile', a), {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            v1Url: webhookUrl('v1', a.accountId),
            v2Url: webhookUrl('v2', a.accountId),
            perSecond: Math.max(1, Math.round(cfg.hostileWebhooks / accounts.length)),
            seed: cfg.seed + i,
          }),
        });
      }
    }
    const webhookReenables = new Map(accounts.map((a) => [a.accountId, 0]));
    let sending = true;
    const reenabling = (async () => {
      while (sending) {
        await sleep(1_000);
        for (const a of accounts) {
          const v = (await (await fetch(forMerchant('/__sandbox/webhooks', a))).json().catch(() => ({}))) as {
            disabled?: boolean;
          };
          if (v.disabled) {
            webhookReenables.set(a.accountId, (webhookReenables.get(a.accountId) ?? 0) + 1);
            await fetch(forMerchant('/__sandbox/webhooks/enable', a), { method: 'POST' }).catch(
              () => undefined,
            );
          }
        }
      }
    })().catch(() => undefined);

    const newProducer = async (): Promise<Producer> => {
      const p = kafka.producer({ allowAutoTopicCreation: false, idempotent: true, maxInFlightRequests: 1 });
      await p.connect();
      return p;
    };
    producer = await newProducer();
    const replaceProducer = async (): Promise<void> => {
      await producer?.disconnect().catch(() => undefined);
      producer = await newProducer();
    };
    const commandsTopic = topicName(PREFIX, TOPICS.commands);

    // Chaos actions, at seeded times over the sending window, run one after another.
    type Action = { at: number; what: 'kill' | 'broker' | 'postgres' | 'rolling' };
    const actions: Action[] = [];
    const window = (lo: number, hi: number) => cfg.durationMs * (lo + r.next() * (hi - lo));
    // Kills spread over the window, each at a seeded point of its own slot.
    for (let k = 0; k < cfg.kills; k += 1) {
      const slot = 0.85 / Math.max(1, cfg.kills);
      actions.push({ at: window(0.05 + k * slot, 0.05 + (k + 0.8) * slot), what: 'kill' });
    }
    for (let k = 0; k < cfg.brokerRestarts; k += 1) {
      actions.push({ at: (cfg.durationMs * (k + 0.5)) / (cfg.brokerRestarts + 0.5), what: 'broker' });
    }
    for (let k = 0; k < cfg.postgresRestarts; k += 1) {
      actions.push({ at: (cfg.durationMs * (k + 0.25)) / (cfg.postgresRestarts + 0.25), what: 'postgres' });
    }
    if (cfg.rollingRestart) actions.push({ at: cfg.durationMs * 0.6, what: 'rolling' });
    actions.sort((a, b) => a.at - b.at);

    const restarts: Restart[] = [];
    const done = { kills: 0, broker: 0, postgres: 0, rolling: 0, rollingExit: '' };
    const sigtermProblems: string[] = [];
    const pendingReady: Promise<void>[] = [];
    const restart = (i: number, cause: Restart['cause']) => {
      const s = services[i];
      if (!s) return;
      const rec: Restart = { instance: s.name, cause, at: Date.now(), starts: s.starts + 1 };
      restarts.push(rec);
      const firstWork = s.nextLine(/"msg":"payout state changed"/);
      s.start();
      void firstWork.then((at) => {
        if (at !== undefined) rec.firstWorkMs = at - rec.at;
      });
      pendingReady.push(
        // Judged for this start only: a later start ends this wait (the restart is superseded).
        waitForHttp(readyUrl(i), READY_TIMEOUT_MS, () => s.running && s.starts === rec.starts).then(
          (ms) => {
            rec.readyMs = ms;
          },
          () => undefined,
        ),
      );
    };
    // Like a supervisor (systemd, Kubernetes): an instance that exits by itself is started again.
    const crashes: string[] = [];
    let ending = false;
    services.forEach((s, i) => {
      s.onUnexpectedExit = (exit) => {
        crashes.push(`${s.name} exited by itself (${exit}) at ${t()}`);
        setTimeout(() => {
          if (!ending && !s.running) restart(i, 'crash');
        }, 2_000);
      };
    });
    const chaosStart = Date.now();
    /** Every chaos step tried: whether it happened as asked (the run fails on one that did not). */
    const steps: StepRecord[] = [];
    const sabotaged = new Set(cfg.sabotage.split(',').filter(Boolean));
    const pgProbe = async (): Promise<string | undefined> => {
      const c = new pg.Client({ connectionString: postgres.url('postgres'), connectionTimeoutMillis: 5_000 });
      c.on('error', () => undefined);
      try {
        await c.connect();
        const { rows } = await c.query<{ t: string }>('SELECT pg_postmaster_start_time()::text AS t');
        return rows[0]?.t;
      } catch {
        return undefined;
      } finally {
        await c.end().catch(() => undefined);
      }
    };
    const chaosLoop = (async () => {
      for (const a of actions) {
        const wait = chaosStart + a.at - Date.now();
        if (wait > 0) await sleep(wait);
        const record = (happened: boolean, detail: string) => {
          steps.push({ step: a.what, happened, detail });
          if (!happened) log(`chaos: ${a.what} did NOT happen: ${detail}`);
        };
        try {
          if (sabotaged.has(a.what)) throw new Error('sabotaged (--sabotage)');
          if (a.what === 'kill') {
            // Both instances may be between a crash and the supervisor's restart: wait for one.
            await until(async () => services.some((s) => s.running), true, 10_000);
            const alive = services.map((s, i) => (s.running ? i : -1)).filter((i) => i >= 0);
            if (alive.length === 0) {
              record(false, 'no instance alive to kill');
              continue;
            }
            const i = r.pick(alive);
            const k = await services[i]?.kill();
            if (k?.delivered && k.gone) {
              done.kills += 1;
              record(true, `pid ${k.pid} killed`);
            } else {
              record(
                false,
                `SIGKILL to pid ${k?.pid ?? '?'}: ${k?.delivered ? 'delivered, process not seen gone' : 'not delivered'}`,
              );
            }
            restart(i, 'SIGKILL');
          } else if (a.what === 'broker') {
            log('chaos: restarting the Kafka broker');
            await broker.stop();
            const down = await until(() => tcpOpen(ports.kafka), false, 10_000);
            await sleep(1_000);
            await broker.start();
            const up = await until(() => tcpOpen(ports.kafka), true, 60_000);
            if (down && up) done.broker += 1;
            record(
              down && up,
              down ? (up ? 'seen down and up' : 'not seen up again') : 'port still open after stop',
            );
          } else if (a.what === 'postgres') {
            log('chaos: restarting PostgreSQL (immediate stop: a crash)');
            // Its start time before (unknown when the server is too slow to answer: then down and up suffice).
            let before: string | undefined;
            await until(async () => (before = await pgProbe()) !== undefined, true, 10_000);
            await postgres.stop('immediate');
            const down = await until(() => tcpOpen(ports.postgres), false, 10_000);
            await sleep(1_000);
            await postgres.start();
            let after: string | undefined;
            await until(async () => (after = await pgProbe()) !== undefined, true, 60_000);
            const restarted = after !== undefined && after !== before;
            if (down && restarted) done.postgres += 1;
            record(
              down && restarted,
              !down
                ? 'port still open after stop'
                : after === undefined
                  ? 'not seen up again'
                  : restarted
                    ? `postmaster started again at ${after}`
                    : `postmaster start time unchanged (${after})`,
            );
          } else {
            log('chaos: SIGTERM rolling restart');
            let stopped = 0;
            let tried = 0;
            for (let i = 0; i < services.length; i += 1) {
              const s = services[i];
              if (!s?.running) continue;
              // A deploy replaces instances at work: one still starting after a kill is waited for.
              await waitForHttp(readyUrl(i), READY_TIMEOUT_MS, () => s.running).catch(() => undefined);
              if (!s.running) continue;
              tried += 1;
              const asked = Date.now();
              const exited = await s.signal('SIGTERM', SHUTDOWN_GRACE_MS + 15_000);
              const took = Date.now() - asked;
              done.rollingExit += `${s.name} exited ${exited ? (s.lastExit ?? '?') : 'not at all'} after ${(took / 1000).toFixed(1)} s; `;
              // A clean stop is exit 0 within the grace period (the service exits 1 past it).
              if (!exited || s.lastExit !== '0' || took > SHUTDOWN_GRACE_MS + 1_000) {
                sigtermProblems.push(
                  `${s.name}: ${exited ? `exit ${s.lastExit ?? '?'}` : 'still running'} ${(took / 1000).toFixed(1)} s after SIGTERM`,
                );
              }
              if (exited) stopped += 1;
              if (!exited) await s.signal('SIGKILL');
              restart(i, 'SIGTERM');
              await waitForHttp(readyUrl(i), READY_TIMEOUT_MS, () => s.running).catch(() => undefined);
            }
            done.rolling += 1;
            record(
              tried > 0 && stopped === tried,
              `${stopped} of ${tried} running instances stopped by SIGTERM (${services.length} in all)`,
            );
          }
        } catch (e) {
          record(false, `failed: ${e instanceof Error ? e.message : String(e)}`);
        }
      }
    })();

    // Send the stream at an even pace over the window, in small produce requests.
    const tickMs = 250;
    const perTick = Math.max(1, Math.ceil(stream.length / (cfg.durationMs / tickMs)));
    let sent = 0;
    let lastProgress = 0;
    const progress = async (phase: string) => {
      if (Date.now() - lastProgress < 5_000) return;
      lastProgress = Date.now();
      const counts = await statusCounts(pool).catch(() => 'database unavailable');
      const up = services.filter((s) => s.running).length;
      log(`${phase}: sent ${sent}/${stream.length}; instances up ${up}/2; kills ${done.kills}; ${counts}`);
    };
    for (let i = 0; i < stream.length; i += perTick) {
      const tickStart = Date.now();
      const batch = stream.slice(i, i + perTick);
      // Two messages near the service's size limit in one partition make a record batch over
      // the broker's message.max.bytes: such a tick goes one message per request. A failed
      // request can leave the idempotent producer with a sequence the broker refuses from then
      // on (OutOfOrderSequenceNumber, for ever): a new producer starts a new sequence.
      let requests = [batch];
      for (let r = 0; r < requests.length; r++) {
        const messages = requests[r]!.map((s) => ({ key: s.key, value: s.value }));
        for (;;) {
          try {
            await producer.send({ topic: commandsTopic, acks: -1, messages });
            break;
          } catch (e) {
            const message = e instanceof Error ? e.message : String(e);
            log(`produce failed (${message}); retrying`);
            if (/larger than the max message size/i.test(message) && requests[r]!.length > 1) {
              requests = [...requests.slice(0, r), ...requests[r]!.map((m) => [m]), ...requests.slice(r + 1)];
              r -= 1;
              await replaceProducer();
              break;
            }
            if (/out of order sequence/i.test(message)) await replaceProducer();
            await sleep(1_000);
          }
        }
      }
      sent += batch.length;
      await progress('sending');
      const rest = tickMs - (Date.now() - tickStart);
      if (rest > 0) await sleep(rest);
    }
    log(`all ${stream.length} messages sent; waiting for the chaos actions to finish`);
    await chaosLoop;
    await Promise.all(pendingReady);
    await sleep(2_500); // a crash restart still due
    // Faults stop here, so what is still unclear can settle.
    const faultView = { calls: 0, injected: {} as Record<string, number> };
    /** The sandbox's own account of the faults it injected, per merchant (checked against the rate asked). */
    const faultsSeen: FaultView[] = [];
    const hostileCounts: Record<string, Record<string, number>> = {};
    for (const a of accounts) {
      const f = (await (await fetch(forMerchant('/__sandbox/fault-mode', a))).json()) as {
        mode: { rate: number; kinds: string[] } | null;
        calls: number;
        injected: Record<string, number>;
        /** The issue-29 sandbox: in-doubt faults that applied the request anyway. */
        appliedInDoubt?: number;
      };
      faultsSeen.push({
        account: a.accountId,
        mode: f.mode,
        calls: f.calls,
        injected: f.injected,
        ...(f.appliedInDoubt !== undefined ? { appliedInDoubt: f.appliedInDoubt } : {}),
      });
      faultView.calls += f.calls;
      for (const [k, n] of Object.entries(f.injected))
        faultView.injected[k] = (faultView.injected[k] ?? 0) + n;
      await fetch(forMerchant('/__sandbox/fault-mode', a), { method: 'DELETE' });
      const h = (await (
        await fetch(forMerchant('/__sandbox/webhooks/hostile', a), { method: 'DELETE' })
      ).json()) as {
        counts: Record<string, Record<string, number>>;
      };
      for (const [variant, counts] of Object.entries(h.counts)) {
        const into = (hostileCounts[variant] ??= {});
        for (const [k, n] of Object.entries(counts)) into[k] = (into[k] ?? 0) + n;
      }
    }
    // Late applies still held land now: advance the sandbox clock past the last one, then settle.
    driving = false;
    await drove;
    if (driver.active) {
      await driver.finish();
      log(`lifecycle: ${JSON.stringify(driver.counts)}`);
    }
    if (funds) {
      await funds.look();
      await funds.finish();
      log(`funds: the held account funded ${funds.counts.funded} times, then with everything`);
    }
    const held = await outcomesOf(sandboxUrl);
    const lastLate = Math.max(0, ...held.pendingLateApplies.map((l) => l.at - held.now));
    if (lastLate > 0) await advanceSandbox(sandboxUrl, lastLate + 1);
    await funds?.look().catch(() => undefined);
    log(
      `faults and hostile webhooks stopped; ${held.pendingLateApplies.length} late applies still held (clock advanced ${(lastLate / 1000).toFixed(1)} s)`,
    );
    const settleStart = Date.now();
    log('settling: waiting for no unfinished row, an empty outbox and no consumer lag');
    let settled = false;
    let stalled = false;
    let lag = -1;
    let seen = '';
    let changedAt = Date.now();
    let lastSweep = Date.now();
    let sweeps = 0;
    while (Date.now() - settleStart < cfg.settleTimeoutMs) {
      lag = await consumerLag(kafka, GROUP, commandsTopic).catch(() => -1);
      const open = await unfinished(pool).catch(() => -1);
      if (lag === 0 && open === 0) {
        settled = true;
        break;
      }
      // Nothing moved for a minute: stuck, not slow (the reconcile schedule is seconds long).
      if (`${lag}/${open}` !== seen) {
        seen = `${lag}/${open}`;
        changedAt = Date.now();
      } else if (Date.now() - changedAt > 60_000) {
        stalled = true;
        break;
      }
      lastProgress = 0;
      // A person at the provider's dashboard goes on while the service settles (a transfer re-sent
      // after the last round is funded, decided, or past the next working day too).
      if (driver.active && Date.now() - lastSweep > 15_000 && sweeps < 6) {
        lastSweep = Date.now();
        sweeps += 1;
        await driver.finish().catch((err: unknown) => log(`lifecycle: sweep failed: ${String(err)}`));
        await funds?.look().catch(() => undefined);
      }
      await progress(`settling (lag ${lag}, unfinished ${open})`);
      await sleep(2_000);
    }
    const settleMs = Date.now() - settleStart;
    if (settled && cfg.attentionSettled) {
      // A payout handed to a person is still asked about (ATTENTION_WATCH_SCHEDULE, every 5 s at
      // the end here): give it a round, so one the provider settled meanwhile has left the queue.
      await sleep(8_000);
    }
    log(
      settled
        ? `settled in ${(settleMs / 1000).toFixed(0)} s`
        : `${stalled ? `stalled (lag ${lag} and unfinished rows unchanged for 60 s)` : 'did not settle in time'}; checking anyway`,
    );

    await funds?.stop();
    // Ground truth.
    const summary = (await (await fetch(`${sandboxUrl}/__sandbox/received/summary`)).json()) as {
      total: number;
      accepted: number;
      distinctAccepted: number;
      byEndpoint: Record<string, { total: number; accepted: number }>;
      acceptedMoreThanOnce: { account: string; transferId: string; accepted: number }[];
    };
    // Which endpoints (so which API generation) carried each account's initiations.
    const byAccountEndpoint = new Map<string, Record<string, { total: number; accepted: number }>>();
    for (const a of accounts) {
      const mine = (await (await fetch(forMerchant('/__sandbox/received/summary', a))).json()) as {
        byEndpoint: Record<string, { total: number; accepted: number }>;
      };
      byAccountEndpoint.set(a.accountId, mine.byEndpoint);
    }
    // Every merchant's (no ?clientId=), each row naming its merchant: keyed by (account, id).
    const transfers = (await (await fetch(`${sandboxUrl}/__sandbox/transfers`)).json()) as {
      transfers: { account: string; transferId: string; endpoint: string; status: string }[];
    };
    const received = (await (await fetch(`${sandboxUrl}/__sandbox/received`)).json()) as {
      initiations: { account: string; transferId: string; accepted: boolean }[];
    };
    const accepted = new Map<string, number>();
    for (const x of received.initiations) {
      const key = keyOf(accountOf(x.account), x.transferId);
      if (x.accepted) accepted.set(key, (accepted.get(key) ?? 0) + 1);
    }
    sending = false;
    await reenabling;
    const judged = await outcomesOf(sandboxUrl);
    const genuine = new Map<string, Record<string, number>>();
    for (const a of accounts) {
      const v = (await (await fetch(forMerchant('/__sandbox/webhooks', a))).json()) as {
        counts: Record<string, number>;
      };
      genuine.set(a.accountId, v.counts);
    }
    const eventMessages = await readTopic(kafka, topicName(PREFIX, TOPICS.events));
    const dlqMessages = await readTopic(kafka, topicName(PREFIX, TOPICS.commandsDlq));
    const ev = analyseEvents(eventMessages, byKey, cfg.outboxTransport === 'wal' ? 'any' : 'latest');
    const dl = analyseDeadLetters(dlqMessages, hostile, ev.last);
    const ledger = await ledgerState(pool);
    lag = await consumerLag(kafka, GROUP, commandsTopic).catch(() => -1);

    const checks: Check[] = [];
    checks.push(
      check(
        'provider: accepted initiations per (account, id) <= 1',
        `${summary.total} initiations, ${summary.distinctAccepted} ids accepted`,
        summary.acceptedMoreThanOnce.map(
          (d) =>
            `${accountOf(d.account)}/${d.transferId}: accepted ${d.accepted} times (${kindOf(byKey, keyOf(accountOf(d.account), d.transferId))})`,
        ),
      ),
    );
    // Each account's generation-routed kinds went to its own generation's endpoints, and only there
    // (issue 22: standard, direct and batch transfers follow the account's API generation).
    const ROUTED: Record<'v1' | 'v2', readonly string[]> = {
      v1: ['requestTransfer', 'directTransfer', 'requestBatchTransfer'],
      v2: ['transferV2', 'batchTransferV2'],
    };
    const misrouted: string[] = [];
    const routedCounts: string[] = [];
    for (const a of accounts) {
      const seen = byAccountEndpoint.get(a.accountId) ?? {};
      const other = a.api === 'v1' ? 'v2' : 'v1';
      for (const e of ROUTED[other])
        if ((seen[e]?.total ?? 0) > 0)
          misrouted.push(`${a.accountId} (${a.api}): ${seen[e]?.total} sent to ${e}`);
      const own = ROUTED[a.api].reduce((n, e) => n + (seen[e]?.total ?? 0), 0);
      if (own === 0)
        misrouted.push(`${a.accountId} (${a.api}): no initiation reached ${ROUTED[a.api].join('/')}`);
      routedCounts.push(`${a.accountId} ${a.api}: ${own}`);
    }
    checks.push(
      check(
        "provider: standard, direct and batch transfers went to each account's own API generation",
        routedCounts.join(', '),
        misrouted,
      ),
    );
    const agreement = providerAgreement(
      commands,
      ev,
      {
        transfers: new Map(transfers.transfers.map((x) => [keyOf(accountOf(x.account), x.transferId), x])),
        accepted,
      },
      reused,
    );
    checks.push(
      check(
        "provider: every final state agrees with the provider's (money moved or not)",
        `${agreement.checked} payouts and batch entries (${agreement.attention} left to a person)`,
        agreement.violations,
      ),
    );
    const allPublished = negativesPublished(eventMessages);
    const published = {
      ...allPublished,
      negatives: new Map([...allPublished.negatives].filter(([k]) => !reused.has(k))),
    };
    const outcomeByKey = new Map(judged.outcomes.map((o) => [keyOf(accountOf(o.account), o.transferId), o]));
    const wrong = wrongTerminals(
      published.negatives,
      outcomeByKey,
      (key) => kindOf(byKey, key),
      await negativePaths(
        pool,
        [...published.negatives.values()]
          .map((list) => list[0])
          .filter((n) => n !== undefined && (outcomeByKey.get(keyOf(n.account, n.id))?.paid ?? 0) > 0)
          .map((n) => ({ account: n?.account ?? '', id: n?.id ?? '' })),
      ),
    );
    const paidIds = judged.outcomes.filter((o) => o.paid > 0 && !o.returned).length;
    checks.push(
      check(
        'provider: no FAILED, REJECTED or REVERSED ever published for a payout the provider paid and did not return',
        `${paidIds} ids paid at the provider, ${[...published.negatives.values()].reduce((a, b) => a + b.length, 0)} negative events published, ${held.pendingLateApplies.length} late applies landed after the run`,
        [
          ...judged.pendingLateApplies.map(
            (l) => `${accountOf(l.account)}/${l.id} (${l.endpoint}): a late apply still held at judging`,
          ),
          ...wrong,
        ],
      ),
    );
    // Issue 29 (a): a negative state the provider's record contradicts was raised within its watch.
    const raisedCheck = unraisedContradictions(
      published.negatives,
      published.contradicted,
      outcomeByKey,
      CONTRADICTION_WATCH_MS,
      (key) => kindOf(byKey, key),
    );
    checks.push(
      check(
        'provider: every FAILED, REJECTED or REVERSED the provider contradicts was raised as payouts.payout.contradicted within its watch',
        `${[...published.negatives.keys()].length} ids with a negative state, ${raisedCheck.contradictedByProvider} contradicted by the provider, ${raisedCheck.raised} raised within ${(CONTRADICTION_WATCH_MS / 1000).toFixed(0)} s`,
        raisedCheck.violations,
      ),
    );
    // Issue 29 (b) and (c): payouts left to a person.
    const left = attentionLeft(commands, ev, outcomeByKey, reused);
    if (lifecycle.has('entry-id-reused')) {
      checks.push(
        check(
          'ids: a batch entry id reused by a single payout: only the one the provider took it from may end SUCCESS, and it agrees with the provider',
          `${reused.size} reused entry ids`,
          entryReuseViolations(reused, ev, outcomeByKey),
        ),
      );
    }
    const settledLeft = [...left.settledByProvider.values()].reduce((a, b) => a + b, 0);
    if (cfg.attentionSettled) {
      checks.push(
        check(
          'attention: no payout or batch left in REQUIRES_ATTENTION that the provider had settled (paid or certainly not paid; a batch: every entry)',
          `${left.total} left to a person, ${settledLeft} settled at the provider (${list(left.settledByProvider)})`,
          left.settled,
        ),
      );
    }
    checks.push(
      check(
        `attention: escalations per 10,000 payouts, batch entries and batches within the budget (${cfg.attentionBudget})`,
        `${per10k(left.total, left.payouts).toFixed(0)} per 10,000 (${left.total} of ${left.payouts} payouts, batch entries and batches; ${left.batchesLeft} of ${left.batches} batches): ${list(new Map([...left.byReason].map(([k, n]) => [k, Math.round(per10k(n, left.payouts))])))}`,
        attentionOverBudget(left, cfg.attentionBudget),
      ),
    );
    const noTerminal: string[] = [];
    for (const c of commands) {
      // Refused at intake as its id is held by another transfer (issue 29): its conflict event.
      const e = ev.last.get(commandKey(c)) ?? ev.refusedInUse.get(commandKey(c));
      if (!isTerminal(e)) {
        noTerminal.push(
          `${c.account}/${c.identity} (${c.label}): ${e ? `last event ${e.data.status} v${e.data.version}` : 'no event'}`,
        );
      }
    }
    checks.push(
      check(
        'events: every command has a terminal event or REQUIRES_ATTENTION',
        `${commands.length} commands`,
        noTerminal,
      ),
    );
    checks.push(
      check('events: versions per key without gaps or reordering', `${ev.total} events`, ev.orderViolations),
    );
    const firstStands: string[] = [];
    for (const key of conflicted) {
      const c = byKey.get(key);
      const e = ev.last.get(key);
      const shown = key.replace('|', '/');
      if (!ev.conflicts.has(key)) firstStands.push(`${shown} (${c?.label ?? '?'}): no conflict event`);
      const amount = (c?.value['data'] as { amount?: string } | undefined)?.amount;
      if (e && amount !== undefined && e.data.amount !== amount) {
        firstStands.push(
          `${shown} (${c?.label ?? '?'}): amount ${e.data.amount ?? '?'}, first request said ${amount}`,
        );
      }
    }
    checks.push(
      check(
        'events: a conflicting reuse gets a conflict event; the first request stands',
        `${conflicted.size} reused ids`,
        firstStands,
      ),
    );
    checks.push(
      check('events: no secret or account number of a command', `${ev.total} events`, ev.secretViolations),
    );
    checks.push(
      check(
        'DLQ: every hostile message, each with a reason',
        `${hostile.length} hostile messages, ${dl.total} dead letters`,
        [...dl.missing, ...dl.withoutReason],
      ),
    );
    checks.push(check('DLQ: nothing secret', `${dl.total} dead letters`, dl.secretLeaks));
    checks.push(
      check('ledger: no row stuck', `${ledger.payouts} payouts, ${ledger.batches} batches`, ledger.stuck),
    );
    checks.push(
      check('outbox: everything published, nothing dead', `${ledger.outbox} outbox rows`, ledger.outboxOpen),
    );
    checks.push(
      check('consumer lag back to zero', `group ${GROUP}`, lag === 0 ? [] : [`lag ${lag} after settling`]),
    );
    const fundsResult =
      funds && pool
        ? await fundsChecks(pool, sandboxUrl, commands, funds, BATCH_DELAY_MS, cfg.variant)
        : undefined;
    checks.push(...(fundsResult?.checks ?? []));
    const asked = {
      kill: cfg.kills,
      broker: cfg.brokerRestarts,
      postgres: cfg.postgresRestarts,
      rolling: cfg.rollingRestart ? 1 : 0,
      faultRate: cfg.faultRate,
      inDoubtApply: cfg.inDoubtApply,
    };
    checks.push(
      check(
        'chaos: every SIGKILL, broker and Postgres restart and provider fault asked for happened',
        chaosHappenedSummary(asked, steps, faultsSeen),
        [...chaosNotHappened(asked, steps, faultsSeen), ...lifecycleNotHappened(driver, commands)],
      ),
    );
    if (cfg.rollingRestart) {
      checks.push(
        check(
          'SIGTERM: each instance stops cleanly (exit 0) within its grace period',
          `${done.rolling} rolling restart of 2 instances`,
          done.rolling === 0 ? ['the rolling restart did not happen'] : sigtermProblems,
        ),
      );
    }
    for (const x of restarts)
      x.superseded =
        x.readyMs === undefined && restarts.some((y) => y.instance === x.instance && y.starts > x.starts);
    const unreadyRestarts = restarts.filter((x) => x.readyMs === undefined && !x.superseded);
    checks.push(
      check(
        'every restarted instance became ready',
        `${restarts.length} restarts`,
        unreadyRestarts.map((x) => `${x.instance} after ${x.cause}: never ready`),
      ),
    );

    ending = true;
    const figures: Figures = {
      cfg,
      code: await codeVersion(),
      durationMs: Date.now() - started,
      settleMs,
      settled,
      stalled,
      sent: {
        commands: commands.length,
        duplicates,
        conflicts,
        hostile: hostile.length,
        messages: stream.length,
        byKind: countBy(commands, (c) => c.kind),
        sharedIds,
        byAccount: new Map(
          accounts.map((a) => {
            const mine = commands.filter((c) => c.account === a.accountId);
            return [
              a.accountId,
              {
                api: a.api,
                webhookVersion: a.webhookVersion,
                commands: mine.length,
                byKind: countBy(mine, (c) => c.kind),
              },
            ];
          }),
        ),
      },
      chaos: { ...done, restarts, crashes },
      faults: {
        ...faultView,
        ...(faultsSeen.some((f) => f.appliedInDoubt !== undefined)
          ? { appliedInDoubt: faultsSeen.reduce((n, f) => n + (f.appliedInDoubt ?? 0), 0) }
          : {}),
      },
      lifecycle: driver.active
        ? `${[...lifecycle].join(', ')}: funded ${driver.counts.funded} times (${driver.counts.released} queued transfers released), approved ${driver.counts.approved}, rejected ${driver.counts.rejected}, clock advanced ${(driver.counts.clockAdvancedMs / 3_600_000).toFixed(0)} h${reused.size ? `, ${reused.size} entry ids reused by a single payout` : ''}`
        : 'off',
      funds: fundsResult?.figure ?? 'off',
      webhooks: {
        genuine,
        reenabled: webhookReenables,
        hostile: hostileCounts,
        contradicted: published.contradicted.length,
        contradictedIds: published.contradicted.slice(0, 5).map((e) => `${e.subject} (${e.data.status})`),
        lateApplies: held.pendingLateApplies.length,
        wrongTerminals: wrong.length,
      },
      provider: { ...summary, byAccount: byAccountEndpoint },
      events: {
        total: ev.total,
        redelivered: ev.redelivered,
        conflictEvents: [...ev.conflicts.values()].reduce((a, b) => a + b, 0),
        finalStatus: ev.finalStatus,
        requiresAttention: ev.requiresAttention,
        attentionByTruth: agreement.attentionByTruth,
      },
      dlq: {
        total: dl.total,
        byReason: dl.byReason,
        settledByEvent: dl.settledByEvent,
        maxCopies: dl.maxCopies,
      },
      attention: {
        payouts: left.payouts,
        total: left.total,
        batches: left.batches,
        batchesLeft: left.batchesLeft,
        byReason: left.byReason,
        settledByProvider: left.settledByProvider,
        neverReceived: left.neverReceived,
        enforced: cfg.attentionSettled,
        budget: cfg.attentionBudget,
        contradictedByProvider: raisedCheck.contradictedByProvider,
        raised: raisedCheck.raised,
      },
      ledger,
      lag,
    };
    const report = renderReport(figures, checks);
    const passed = checks.filter((c) => c.passed).length;
    const failed = checks.length - passed;
    if (cfg.reportFile) {
      // The hand-kept part of the file (the terminal-state audit) survives the run's rewrite.
      const before = await readFile(resolve(REPO, cfg.reportFile), 'utf8').catch(() => '');
      await writeFile(resolve(REPO, cfg.reportFile), report + keptSection(before));
    }
    await writeFile(join(LOG_DIR, 'report.md'), report);
    return { checks, figures, report, passed, failed };
  } finally {
    process.off('SIGINT', interrupted);
    process.off('SIGTERM', interrupted);
    await teardown();
  }
}

/** Every merchant's (the sandbox names the merchant, its client id, as `account`). */
interface SandboxOutcomes {
  now: number;
  pendingLateApplies: { account: string; endpoint: string; id: string; at: number }[];
  outcomes: ProviderOutcome[];
}

async function outcomesOf(sandboxUrl: string): Promise<SandboxOutcomes> {
  return (await (await fetch(`${sandboxUrl}/__sandbox/outcomes`)).json()) as SandboxOutcomes;
}

async function advanceSandbox(sandboxUrl: string, ms: number): Promise<void> {
  await fetch(`${sandboxUrl}/__sandbox/clock/advance`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ms: Math.ceil(ms) }),
  });
}

/**
 * How the service reached each negative state of these (account, id)s: cause and reason from its
 * state history, keyed by `keyOf(account, id)`.
 */
async function negativePaths(
  pool: pg.Pool | undefined,
  ids: readonly { account: string; id: string }[],
): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  if (!pool || ids.length === 0) return out;
  const { rows } = await pool.query<{ account_id: string; transfer_id: string; path: string }>(
    `SELECT h.account_id, h.transfer_id,
            string_agg(coalesce(h.from_status, '-') || '>' || h.to_status || ' by ' || h.cause
                       || coalesce(' (' || h.reason || ')', ''), '; ' ORDER BY h.id) AS path
       FROM state_history h
       JOIN unnest($1::text[], $2::text[]) AS k(account_id, transfer_id)
         ON k.account_id = h.account_id AND k.transfer_id = h.transfer_id
      WHERE h.to_status IN ('FAILED', 'REJECTED', 'REVERSED')
      GROUP BY h.account_id, h.transfer_id`,
    [ids.map((x) => x.account), ids.map((x) => x.id)],
  );
  for (const r of rows) out.set(keyOf(r.account_id, r.transfer_id), r.path);
  return out;
}

/** The commit the run's code comes from (dist/ is built from the work tree). */
async function codeVersion(): Promise<string> {
  try {
    const head = (await execute('git', ['rev-parse', '--short=12', 'HEAD'], { cwd: REPO })).stdout.trim();
    const dirty = (
      await execute('git', ['status', '--porcelain', '--', 'apps', 'libs', 'test'], { cwd: REPO })
    ).stdout.trim();
    return `commit ${head}${dirty ? ' with uncommitted changes' : ''}`;
  } catch {
    return 'unknown (no git)';
  }
}

function countBy<T>(xs: readonly T[], f: (x: T) => string): Map<string, number> {
  const m = new Map<string, number>();
  for (const x of xs) m.set(f(x), (m.get(f(x)) ?? 0) + 1);
  return m;
}

/** What the command of `keyOf(account, id)` (or of that batch entry) exercises. */
function kindOf(byKey: ReadonlyMap<string, PlannedCommand>, key: string): string {
  const c =
    byKey.get(key) ?? [...byKey.values()].find((x) => x.entries.some((e) => keyOf(x.account, e) === key));
  return c ? c.label : 'not a command of this run';
}

async function statusCounts(pool: pg.Pool | undefined): Promise<string> {
  if (!pool) return '';
  const { rows } = await pool.query<{ status: string; n: string }>(
    'SELECT status, count(*) AS n FROM payout GROUP BY status ORDER BY status',
  );
  return rows.map((x) => `${x.status} ${x.n}`).join(', ');
}

// A payout or batch held for funds (issue 32) is not finished either.
const OPEN_PAYOUT = `status IN ('RECEIVED', 'HELD_FOR_FUNDS', 'SUBMITTING', 'PENDING', 'UNKNOWN')`;
const OPEN_BATCH = `status IN ('RECEIVED', 'HELD_FOR_FUNDS', 'SUBMITTING', 'PROCESSING', 'UNKNOWN')`;

async function unfinished(pool: pg.Pool | undefined): Promise<number> {
  if (!pool) return -1;
  const { rows } = await pool.query<{ n: string }>(
    `SELECT (SELECT count(*) FROM payout WHERE ${OPEN_PAYOUT})
          + (SELECT count(*) FROM batch WHERE ${OPEN_BATCH})
          + (SELECT count(*) FROM outbox WHERE state <> 'published') AS n`,
  );
  return Number(rows[0]?.n ?? -1);
}

export interface LedgerState {
  payouts: number;
  batches: number;
  outbox: number;
  stuck: string[];
  outboxOpen: string[];
}

async function ledgerState(pool: pg.Pool | undefined): Promise<LedgerState> {
  if (!pool) throw new Error('no database');
  const count = async (sql: string) => Number((await pool.query<{ n: string }>(sql)).rows[0]?.n ?? 0);
  const stuckPayouts = await pool.query<{
    transfer_id: string;
    kind: string;
    status: string;
    attempt: number;
    last_error: unknown;
  }>(`SELECT transfer_id, kind, status, attempt, last_error FROM payout WHERE ${OPEN_PAYOUT} ORDER BY id`);
  const stuckBatches = await pool.query<{ batch_transfer_id: string; status: string }>(
    `SELECT batch_transfer_id, status FROM batch WHERE ${OPEN_BATCH} ORDER BY id`,
  );
  const open = await pool.query<{
    message_key: string;
    state: string;
    attempts: number;
    last_error: string | null;
  }>(`SELECT message_key, state, attempts, last_error FROM outbox WHERE state <> 'published' ORDER BY id`);
  return {
    payouts: await count('SELECT count(*) AS n FROM payout'),
    batches: await count('SELECT count(*) AS n FROM batch'),
    outbox: await count('SELECT count(*) AS n FROM outbox'),
    stuck: [
      ...stuckPayouts.rows.map(
        (x) =>
          `payout ${x.transfer_id} (${x.kind}) stuck in ${x.status} after ${x.attempt} sends; last error ${JSON.stringify(x.last_error)?.slice(0, 160) ?? 'none'}`,
      ),
      ...stuckBatches.rows.map((x) => `batch ${x.batch_transfer_id} stuck in ${x.status}`),
    ],
    outboxOpen: open.rows.map(
      (x) =>
        `outbox row of ${x.message_key} ${x.state} after ${x.attempts} attempts: ${x.last_error?.slice(0, 160) ?? ''}`,
    ),
  };
}

/**
 * Each merchant's set-up in the provider's dashboard: the same beneficiaries for every account
 * (aged past the 30-minute rule); transfer tokens are issued for the command's account.
 */
async function prepareSandbox(url: string, accounts: readonly ChaosAccount[]): Promise<SandboxFixtures> {
  const beneIds = {
    success: 'CHAOSOK',
    pendingThenSuccess: 'CHAOSPEND',
    invalidAccount: 'CHAOSBAD',
  } as const;
  for (const account of accounts) {
    const auth = await fetch(`${url}/payout/v1/authorize`, {
      method: 'POST',
      headers: { 'x-client-id': account.clientId, 'x-client-secret': account.clientSecret },
    });
    const token = ((await auth.json()) as { data: { token: string } }).data.token;
    for (const [outcome, beneId] of Object.entries(beneIds)) {
      const a = TEST_ACCOUNTS.find((x) => x.outcome === outcome);
      if (!a) throw new Error(`no sandbox account for ${outcome}`);
      const res = await fetch(`${url}/payout/v1/addBeneficiary`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          beneId,
          name: 'Chaos Bene',
          email: 'bene@example.com',
          phone: '9876543210',
          address1: 'Street 1',
          bankAccount: a.bankAccount,
          ifsc: a.ifsc,
        }),
      });
      const body = (await res.json()) as { subCode?: string; message?: string };
      if (String(body.subCode) !== '200') {
        throw new Error(`addBeneficiary ${beneId} (${account.accountId}): ${body.message ?? '?'}`);
      }
    }
  }
  await fetch(`${url}/__sandbox/clock/advance`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ seconds: 31 * 60 }),
  });
  const clientOf = new Map(accounts.map((a) => [a.accountId, a.clientId]));
  return {
    beneIds,
    async transferToken(account, transferId, vpa) {
      const clientId = clientOf.get(account);
      if (clientId === undefined) throw new Error(`chaos: no account ${account}`);
      const res = await fetch(`${url}/__sandbox/transfer-tokens?clientId=${encodeURIComponent(clientId)}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ transfer_id: transferId, vpa }),
      });
      return ((await res.json()) as { transfer_token: string }).transfer_token;
    },
  };
}
