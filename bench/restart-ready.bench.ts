/**
 * Restart -> ready after a SIGKILL, in isolation (the chaos run's figure without its other faults):
 * two service instances on one database and topics, a light stream of commands, and RESTART_REPS
 * (10) times: SIGKILL one instance (in turn), start it again at once, and time until its
 * /health/ready answers 200, and until each of its consumer groups logs "consuming" (joined).
 *
 *   node dist/bench/restart-ready.bench.js
 *
 * Knobs: RESTART_REPS (10), RESTART_LOAD_PER_S (20 commands a second, 0 for none),
 * RESTART_SETTLE_MS (3000: both ready this long before the next kill), and any service env var
 * (KAFKA_SESSION_TIMEOUT_MS, ...), passed through. Logs in .run/logs/restart-ready/. "Nest starting"
 * splits the restart: before it, node loads and starts (CPU-bound); after it, the app is built and
 * its consumer groups join.
 */
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { TOPICS, topicName } from '#contracts';
import { startSandbox } from '#sandbox';
import {
  createServiceTopics,
  createTestDatabase,
  testKafka,
  testServiceEnv,
  testTopicPrefix,
} from '#test-support';
import { ensureDir, NodeProcess, REPO, waitForHttp } from '../test/chaos/infra.js';

const REPS = Number(process.env['RESTART_REPS'] ?? 10);
const LOAD = Number(process.env['RESTART_LOAD_PER_S'] ?? 20);
const SETTLE_MS = Number(process.env['RESTART_SETTLE_MS'] ?? 3_000);
const BASE_PORT = Number(process.env['RESTART_BASE_PORT'] ?? 23_790);

interface Rep {
  instance: number;
  readyMs: number | undefined;
  /** Until Nest starts building the app (loading and starting node): the CPU's share, not Kafka's. */
  bootMs: number | undefined;
  joinedMs: Record<string, number | undefined>;
}

function stats(xs: number[]): string {
  if (xs.length === 0) return 'n=0';
  const s = [...xs].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.ceil(p * s.length) - 1)]!;
  return `median ${(q(0.5) / 1000).toFixed(1)} s, p90 ${(q(0.9) / 1000).toFixed(1)} s, max ${(s.at(-1)! / 1000).toFixed(1)} s (n=${s.length})`;
}

async function main(): Promise<void> {
  const db = await createTestDatabase();
  const prefix = testTopicPrefix();
  await createServiceTopics(prefix);
  const sandbox = await startSandbox({ port: 0 });
  const logs = join(REPO, '.run/logs/restart-ready');
  await ensureDir(logs);
  const services = [0, 1].map(
    (i) =>
      new NodeProcess(
        `service-${i}`,
        'dist/apps/payout-service/src/main.js',
        testServiceEnv({
          databaseUrl: db.url,
          topicPrefix: prefix,
          extra: {
            HTTP_PORT: String(BASE_PORT + i),
            PROVIDER_BASE_URL: sandbox.url,
            PROVIDER_PAYOUT_URL: sandbox.url,
            LOG_LEVEL: 'info',
          },
        }),
        join(logs, `${prefix}-service-${i}.log`),
      ),
  );
  const ready = (i: number) => `http://127.0.0.1:${BASE_PORT + i}/health/ready`;
  const producer = testKafka().producer();
  await producer.connect();
  let loading = LOAD > 0;
  let sent = 0;
  const load = (async () => {
    while (loading) {
      const id = `rr_${sent++}`;
      await producer
        .send({
          topic: topicName(prefix, TOPICS.commands),
          messages: [
            {
              key: id,
              value: JSON.stringify({
                type: 'payout.internal_transfer',
                data: { transferId: id, amount: '10.00', rechargeAccount: 'RA0001' },
              }),
            },
          ],
        })
        .catch(() => undefined);
      await sleep(1000 / LOAD);
    }
  })();
  const reps: Rep[] = [];
  try {
    services.forEach((s) => s.start());
    await Promise.all(services.map((s, i) => waitForHttp(ready(i), 120_000, () => s.running)));
    for (let k = 0; k < REPS; k += 1) {
      await sleep(SETTLE_MS);
      const i = k % 2;
      const s = services[i]!;
      await s.signal('SIGKILL');
      const started = Date.now();
      const booted = s.nextLine(/"msg":"Starting Nest application/, 150_000);
      const joined: Record<string, Promise<number | undefined>> = {};
      for (const g of ['intake', 'queries']) {
        joined[g] = s.nextLine(new RegExp(`"groupId":"[^"]*\\.${g}"[^\\n]*"msg":"consuming"`), 150_000);
      }
      s.start();
      const readyMs = await waitForHttp(ready(i), 150_000, () => s.running).catch(() => undefined);
      const joinedMs: Record<string, number | undefined> = {};
      for (const [g, p] of Object.entries(joined)) {
        const at = await Promise.race([p, sleep(1_000).then(() => undefined)]);
        joinedMs[g] = at === undefined ? undefined : at - started;
      }
      const bootAt = await Promise.race([booted, sleep(1_000).then(() => undefined)]);
      const bootMs = bootAt === undefined ? undefined : bootAt - started;
      reps.push({ instance: i, readyMs, bootMs, joinedMs });
      const fmt = (ms: number | undefined) => (ms === undefined ? '-' : `${(ms / 1000).toFixed(1)} s`);
      console.log(
        `rep ${k + 1}: service-${i} ready ${fmt(readyMs)}; booted ${fmt(bootMs)}; joined ${Object.entries(
          joinedMs,
        )
          .map(([g, ms]) => `${g} ${fmt(ms)}`)
          .join(', ')}`,
      );
    }
  } finally {
    loading = false;
    await load;
    await producer.disconnect();
    for (const s of services) await s.close();
    await sandbox.close();
    await db.drop();
  }
  const readyAll = reps.flatMap((r) => (r.readyMs === undefined ? [] : [r.readyMs]));
  console.log(`restart -> ready: ${stats(readyAll)}; ${LOAD} commands/s, ${sent} sent`);
  const afterBoot = (ms: number | undefined, r: Rep) =>
    ms === undefined || r.bootMs === undefined ? [] : [ms - r.bootMs];
  console.log(`Nest starting -> ready: ${stats(reps.flatMap((r) => afterBoot(r.readyMs, r)))}`);
  for (const g of ['intake', 'queries']) {
    const xs = reps.flatMap((r) => (r.joinedMs[g] === undefined ? [] : [r.joinedMs[g]]));
    console.log(`restart -> ${g} group joined: ${stats(xs)}`);
    console.log(
      `Nest starting -> ${g} group joined: ${stats(reps.flatMap((r) => afterBoot(r.joinedMs[g], r)))}`,
    );
  }
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
