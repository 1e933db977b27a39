/** Profiles the intake role alone: N commands in, CPU profile of the service written to PROFILE_DIR. */
import { Kafka, logLevel } from 'kafkajs';
import pg from 'pg';
import { TOPICS, topicName } from '#contracts';
import { ensureTopics } from '#messaging';
import { freePort, freshDatabase, migratedTemplate, stopNode, waitHttp } from './support.js';
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';

const N = Number(process.env['N'] ?? 20000);
const kafka = new Kafka({ clientId: 'prof', brokers: ['127.0.0.1:9092'], logLevel: logLevel.NOTHING });
async function main(): Promise<void> {
  await migratedTemplate('payouts_bench_template');
  const db = await freshDatabase('payouts_bench_prof', 'payouts_bench_template');
  const prefix = `prof-${Date.now().toString(36)}`;
  await ensureTopics(
    kafka,
    Object.values(TOPICS).map((t) => ({ topic: topicName(prefix, t), numPartitions: 6 })),
  );
  const hp = await freePort();
  const svc = spawn(
    process.execPath,
    [
      '--cpu-prof',
      `--cpu-prof-dir=${process.env['PROFILE_DIR'] ?? '/tmp/prof'}`,
      resolve(import.meta.dirname, '../../dist/apps/payout-service/src/main.js'),
    ],
    {
      env: {
        ...process.env,
        DATABASE_URL: db,
        KAFKA_TOPIC_PREFIX: prefix,
        KAFKA_CLIENT_ID: prefix,
        HTTP_PORT: String(hp),
        LOG_LEVEL: 'warn',
        SERVICE_ROLES: 'intake',
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  await waitHttp(`http://127.0.0.1:${hp}/health/ready`);
  const producer = kafka.producer();
  await producer.connect();
  const msgs = Array.from({ length: N }, (_, i) => ({
    key: `p${i}`,
    value: JSON.stringify({
      type: 'payout.direct_transfer',
      data: {
        transferId: `p${i}`,
        amount: '101.00',
        beneDetails: { name: 'B', bankAccount: '026291800001191', ifsc: 'YESB0000262' },
      },
    }),
  }));
  const t0 = performance.now();
  for (let i = 0; i < N; i += 1000)
    await producer.send({ topic: topicName(prefix, TOPICS.commands), messages: msgs.slice(i, i + 1000) });
  const pool = new pg.Pool({ connectionString: db });
  for (;;) {
    const { rows } = await pool.query<{ n: string }>('SELECT count(*) n FROM payout');
    if (Number(rows[0]?.n) >= N) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  console.log(`intake ${Math.round(N / ((performance.now() - t0) / 1000))} cmd/s`);
  const { rows } = await pool.query(`SELECT count(*) n, count(DISTINCT created_at) batches FROM payout`);
  console.log(rows);
  await pool.end();
  await producer.disconnect();
  await stopNode(svc);
}
main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
