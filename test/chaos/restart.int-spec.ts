import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { TOPICS, topicName, type PayoutEvent } from '#contracts';
import { startSandbox, type RunningSandbox } from '#sandbox';
import {
  createServiceTopics,
  createTestDatabase,
  eventually,
  FAST_RECONCILE,
  freePort,
  testKafka,
  testServiceEnv,
  testTopicPrefix,
  type TestDatabase,
} from '#test-support';
import { ensureDir, NodeProcess, REPO, waitForHttp } from './infra.js';

/**
 * Its HTTP port: a free one unless CHAOS_RESTART_TEST_PORT says (the chaos run, which may run at
 * the same time, takes fixed ports from its base: a fixed port here collided with its webhooks
 * balancer).
 */
let PORT = Number(process.env['CHAOS_RESTART_TEST_PORT'] ?? 0);

/**
 * A SIGKILLed instance, started again, is back at work in seconds: it does not wait out the
 * killed member's Kafka session (kafkajs' default 30 s) before it joins the group and is ready.
 */
let db: TestDatabase;
let sandbox: RunningSandbox;
let service: NodeProcess;
const events: PayoutEvent[] = [];
const kafka = testKafka();
const consumer = kafka.consumer({ groupId: `restart-observer-${process.pid}` });
const producer = kafka.producer();
const prefix = testTopicPrefix();

before(async () => {
  if (PORT === 0) PORT = await freePort();
  db = await createTestDatabase();
  await createServiceTopics(prefix);
  sandbox = await startSandbox({ port: 0 });
  await Promise.all([consumer.connect(), producer.connect()]);
  await consumer.subscribe({ topics: [topicName(prefix, TOPICS.events)], fromBeginning: true });
  await consumer.run({
    eachMessage: async ({ message }) => {
      events.push(JSON.parse(message.value?.toString() ?? '{}') as PayoutEvent);
    },
  });
  // Not in .run/logs/chaos: the chaos run, which may run at the same time, empties it first.
  const logs = join(REPO, '.run/logs');
  await ensureDir(logs);
  service = new NodeProcess(
    'restart-test',
    'dist/apps/payout-service/src/main.js',
    testServiceEnv({
      databaseUrl: db.url,
      topicPrefix: prefix,
      extra: {
        HTTP_PORT: String(PORT),
        PROVIDER_BASE_URL: sandbox.url,
        PROVIDER_PAYOUT_URL: sandbox.url,
        LOG_LEVEL: 'info',
        ...FAST_RECONCILE,
      },
    }),
    join(logs, `restart-test-${process.pid}.log`),
  );
});

after(async () => {
  await service.close();
  await consumer.disconnect();
  await producer.disconnect();
  await sandbox.close();
  await db.drop();
});

const send = (transferId: string) =>
  producer.send({
    topic: topicName(prefix, TOPICS.commands),
    messages: [
      {
        key: transferId,
        value: JSON.stringify({
          type: 'payout.internal_transfer',
          data: { transferId, amount: '10.00', rechargeAccount: 'RA0001' },
        }),
      },
    ],
  });

it(
  'after a SIGKILL, the restarted instance is ready and processing within seconds',
  { timeout: 120_000 },
  async () => {
    const ready = `http://127.0.0.1:${PORT}/health/ready`;
    service.start();
    await waitForHttp(ready, 60_000, () => service.running);
    await send('rs_before');
    await eventually(() => events.find((e) => e.subject === 'rs_before' && e.data.status === 'SUCCESS'), {
      timeoutMs: 30_000,
    });

    await service.signal('SIGKILL');
    const restarted = Date.now();
    service.start();
    await send('rs_after');
    const readyMs = await waitForHttp(ready, 60_000, () => service.running);
    await eventually(() => events.find((e) => e.subject === 'rs_after' && e.data.status === 'RECEIVED'), {
      timeoutMs: 60_000,
    });
    const firstWorkMs = Date.now() - restarted;
    console.log(`restart -> ready ${readyMs} ms, restart -> first command accepted ${firstWorkMs} ms`);
    assert.ok(readyMs < 15_000, `ready after ${readyMs} ms`);
    assert.ok(firstWorkMs < 15_000, `first command after ${firstWorkMs} ms`);
  },
);
