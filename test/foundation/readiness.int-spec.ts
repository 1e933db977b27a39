import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { withDatabase } from '#database';
import {
  capturingLogger,
  createTestDatabase,
  eventually,
  PrivateBroker,
  TcpProxy,
  testServiceEnv,
  testTopicPrefix,
  type TestDatabase,
} from '#test-support';
import { startService, type ServiceApp } from '../../apps/payout-service/src/bootstrap.js';
import { loadServiceConfig } from '../../apps/payout-service/src/service.config.js';

interface Readiness {
  status: number;
  body: { status: string; error?: Record<string, { status: string; message?: string }> };
}

async function ready(url: string): Promise<Readiness> {
  const res = await fetch(`${url}/health/ready`);
  return { status: res.status, body: (await res.json()) as Readiness['body'] };
}

describe('readiness follows the real dependencies', () => {
  let db: TestDatabase;
  const broker = new PrivateBroker();
  const pgProxy = new TcpProxy('127.0.0.1', 5432);
  let service: ServiceApp;

  before(async () => {
    db = await createTestDatabase();
    await broker.start();
    const proxyPort = await pgProxy.start();
    const proxied = new URL(withDatabase(db.url, db.name));
    proxied.port = String(proxyPort);
    const config = loadServiceConfig(
      testServiceEnv({
        databaseUrl: proxied.toString(),
        topicPrefix: testTopicPrefix(),
        brokers: broker.brokers,
      }),
    );
    service = await startService(config, capturingLogger('fatal').logger);
  });

  after(async () => {
    await service?.close();
    await pgProxy.cut();
    await broker.destroy();
    await db?.drop();
  });

  it('is live and ready when Postgres and Kafka answer', async () => {
    const live = await fetch(`${service.url}/health/live`);
    assert.equal(live.status, 200);
    const r = await eventually(async () => {
      const x = await ready(service.url);
      return x.status === 200 ? x : undefined;
    });
    assert.equal(r.body.status, 'ok');
  });

  it('turns red, naming Kafka, when the broker stops, and green when it is back', async () => {
    await broker.stop();
    const red = await eventually(async () => {
      const x = await ready(service.url);
      return x.status === 503 ? x : undefined;
    });
    assert.equal(red.body.error?.['kafka']?.status, 'down');
    assert.equal(red.body.error?.['postgres'], undefined, 'postgres is still up');
    assert.equal((await fetch(`${service.url}/health/live`)).status, 200, 'liveness does not follow Kafka');

    await broker.start();
    await eventually(
      async () => {
        const x = await ready(service.url);
        return x.status === 200 ? x : undefined;
      },
      { timeoutMs: 30_000, what: 'ready again after the broker restarted' },
    );
  });

  it('turns red, naming Postgres, when the database is unreachable, and green when it is back', async () => {
    await pgProxy.cut();
    const red = await eventually(async () => {
      const x = await ready(service.url);
      return x.status === 503 ? x : undefined;
    });
    assert.equal(red.body.error?.['postgres']?.status, 'down');
    assert.equal((await fetch(`${service.url}/health/live`)).status, 200);

    await pgProxy.start();
    await eventually(
      async () => {
        const x = await ready(service.url);
        return x.status === 200 ? x : undefined;
      },
      { timeoutMs: 30_000, what: 'ready again after Postgres came back' },
    );
  });
});
