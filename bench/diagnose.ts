/** Where does a payout's time go? Runs a steady load, then reads stage timestamps from the DB. */
import { Kafka, logLevel } from 'kafkajs';
import pg from 'pg';
import { TOPICS, topicName } from '#contracts';
import { ensureTopics } from '#messaging';
import {
  benchDatabase,
  freePort,
  freshDatabase,
  migratedTemplate,
  startNode,
  stopNode,
  waitHttp,
} from './support.js';

const N = Number(process.env['N'] ?? 1000);
const RATE = Number(process.env['RATE'] ?? 200);
const kafka = new Kafka({ clientId: 'diag', brokers: ['127.0.0.1:9092'], logLevel: logLevel.NOTHING });
const run = Date.now().toString(36);

async function main(): Promise<void> {
  await migratedTemplate(benchDatabase('template'));
  const db = await freshDatabase(benchDatabase('diag'), benchDatabase('template'));
  const prefix = `diag-${run}`;
  await ensureTopics(
    kafka,
    Object.values(TOPICS).map((t) => ({ topic: topicName(prefix, t), numPartitions: 6 })),
  );
  const sp = await freePort();
  const sandbox = startNode('dist/apps/provider-sandbox/src/main.js', {
    SANDBOX_PORT: String(sp),
    SANDBOX_LOG_LEVEL: 'warn',
    SANDBOX_RATE_LIMIT_TRANSFER: '0',
    SANDBOX_RATE_LIMIT_STATUS: '0',
  });
  await waitHttp(`http://127.0.0.1:${sp}/__sandbox/clock`);
  const hp = await freePort();
  const svc = startNode('dist/apps/payout-service/src/main.js', {
    DATABASE_URL: db,
    KAFKA_TOPIC_PREFIX: prefix,
    KAFKA_CLIENT_ID: prefix,
    HTTP_PORT: String(hp),
    LOG_LEVEL: 'warn',
    PROVIDER_BASE_URL: `http://127.0.0.1:${sp}`,
    PROVIDER_PAYOUT_URL: `http://127.0.0.1:${sp}`,
    PROVIDER_RATE_TRANSFER_PER_MIN: '600000',
    EXECUTOR_IDLE_POLL_MS: '20',
    ...(process.env['EXTRA'] ? (JSON.parse(process.env['EXTRA']) as Record<string, string>) : {}),
  });
  await waitHttp(`http://127.0.0.1:${hp}/health/ready`);
  const producer = kafka.producer();
  await producer.connect();
  const t0 = Date.now();
  for (let i = 0; i < N; i += RATE / 20) {
    const due = t0 + (i / RATE) * 1000;
    if (due > Date.now()) await new Promise((r) => setTimeout(r, due - Date.now()));
    const sentAt = new Date().toISOString();
    await producer.send({
      topic: topicName(prefix, TOPICS.commands),
      messages: Array.from({ length: RATE / 20 }, (_, k) => {
        const transferId = `x${i + k}`;
        return {
          key: transferId,
          value: JSON.stringify({
            type: 'payout.direct_transfer',
            requestId: sentAt,
            data: {
              transferId,
              amount: '101.00',
              beneDetails: { name: 'B', bankAccount: '026291800001191', ifsc: 'YESB0000262' },
            },
          }),
        };
      }),
    });
  }
  await new Promise((r) => setTimeout(r, 5000));
  const pool = new pg.Pool({ connectionString: db });
  const q = async (label: string, sql: string) => {
    const { rows } = await pool.query<{ p50: number; p95: number; p99: number; n: string }>(
      `SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY d) p50, percentile_cont(0.95) WITHIN GROUP (ORDER BY d) p95, percentile_cont(0.99) WITHIN GROUP (ORDER BY d) p99, count(*) n FROM (${sql}) x`,
    );
    const r = rows[0];
    console.log(
      `${label.padEnd(40)} n=${r?.n} p50=${Math.round(r?.p50 ?? 0)} p95=${Math.round(r?.p95 ?? 0)} p99=${Math.round(r?.p99 ?? 0)} ms`,
    );
  };
  await q(
    'sent -> intake committed (RECEIVED)',
    `SELECT EXTRACT(EPOCH FROM created_at - request_id::timestamptz)*1000 d FROM payout`,
  );
  await q(
    'RECEIVED event -> outbox published',
    `SELECT EXTRACT(EPOCH FROM published_at - created_at)*1000 d FROM outbox WHERE event_type LIKE '%accepted'`,
  );
  await q(
    'SUBMITTING row written -> published',
    `SELECT EXTRACT(EPOCH FROM published_at - created_at)*1000 d FROM outbox WHERE event_type LIKE '%submitting'`,
  );
  await q(
    'SUCCESS row written -> published',
    `SELECT EXTRACT(EPOCH FROM published_at - created_at)*1000 d FROM outbox WHERE event_type LIKE '%succeeded'`,
  );
  await q(
    'RECEIVED -> SUCCESS (ledger)',
    `SELECT EXTRACT(EPOCH FROM (SELECT o.created_at FROM outbox o WHERE o.event_id = 'payout/' || p.account_id || '/' || p.transfer_id || ':3') - p.created_at)*1000 d FROM payout p`,
  );
  await q(
    'RECEIVED -> SUBMITTING (claim)',
    `SELECT EXTRACT(EPOCH FROM (SELECT o.created_at FROM outbox o WHERE o.event_id = 'payout/' || p.account_id || '/' || p.transfer_id || ':2') - p.created_at)*1000 d FROM payout p`,
  );
  await q(
    'sent -> SUCCESS published',
    `SELECT EXTRACT(EPOCH FROM (SELECT o.published_at FROM outbox o WHERE o.event_id = 'payout/' || p.account_id || '/' || p.transfer_id || ':3') - p.request_id::timestamptz)*1000 d FROM payout p`,
  );
  const { rows } = await pool.query(`SELECT status, count(*) FROM payout GROUP BY 1`);
  console.log(rows);
  await pool.end();
  await producer.disconnect();
  await stopNode(svc);
  await stopNode(sandbox);
}
main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
