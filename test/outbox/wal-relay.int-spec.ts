import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import pg from 'pg';
import { ConfigError } from '#config';
import { createPool, ensureDatabase, runMigrations } from '#database';
import {
  OutboxRelay,
  OutboxRepository,
  prepareWalOutbox,
  WalOutboxWriter,
  WalRelay,
  type OutboxInsert,
} from '#outbox';
import {
  capturingLogger,
  createTestDatabase,
  eventually,
  FAST_RECONCILE,
  freePort,
  PrivateBroker,
  PrivatePostgres,
  startStack,
  testKafka,
  testServiceEnv,
  testTopicPrefix,
} from '#test-support';
import { startService } from '../../apps/payout-service/src/bootstrap.js';
import { loadServiceConfig } from '../../apps/payout-service/src/service.config.js';
import { ensureTopics } from '#messaging';
import { topicName } from '#contracts';
import { Kafka, logLevel, type Consumer } from 'kafkajs';
import { EVENTS, event, range, TEST_SETTINGS, versionsByKey, type Received } from './harness.js';

/**
 * OUTBOX_TRANSPORT=wal (ADR 0023) on a PostgreSQL cluster of this file's own with
 * wal_level=logical (the system one of a CI machine has `replica`): commit order, per-key order,
 * at-least-once across relay stops and kills, a PostgreSQL restart, failed sends parked in the
 * table behind which their key waits, replay, and a second relay standing by.
 */
describe('WAL outbox (logical decoding messages, a private wal_level=logical cluster)', () => {
  const log = capturingLogger('warn');
  const prefix = testTopicPrefix();
  const kafka = new Kafka({
    clientId: `wal-${prefix}`,
    brokers: testKafkaBrokers(),
    logLevel: logLevel.NOTHING,
    retry: { retries: 1, initialRetryTime: 100, maxRetryTime: 500 },
  });
  let cluster: PrivatePostgres;
  let url = '';
  let pool: pg.Pool;
  const repo = new OutboxRepository();
  const writer = new WalOutboxWriter();
  const relays: Array<WalRelay | OutboxRelay> = [];
  const consumers: Consumer[] = [];
  let slotN = 0;

  before(async () => {
    const port = Number(process.env['WAL_TEST_PG_PORT'] ?? 0) || (await freePort());
    cluster = new PrivatePostgres(port, join(tmpdir(), `wal-outbox-pg-${port}.log`), [
      'wal_level=logical',
      'max_wal_senders=10',
      'max_replication_slots=10',
      'wal_sender_timeout=10s',
    ]);
    await cluster.init();
    url = cluster.url('wal_outbox_test');
    await ensureDatabase(url);
    await runMigrations(url);
    pool = createPool({ url, max: 8, applicationName: 'wal-test', onConnectionError: () => undefined });
    await ensureTopics(testKafka(), [{ topic: topicName(prefix, EVENTS), numPartitions: 3 }]);
  });

  after(async () => {
    for (const r of relays) await r.stop().catch(() => undefined);
    for (const c of consumers) await c.disconnect().catch(() => undefined);
    await pool?.end().catch(() => undefined);
    await cluster?.destroy();
  });

  /** A fresh slot (and its relays) per test: each test reads only what it wrote. */
  async function newSlot(): Promise<string> {
    const slot = `wal_test_${++slotN}`;
    await prepareWalOutbox(pool, slot, log.logger);
    return slot;
  }

  function walRelay(
    slot: string,
    overrides: Partial<typeof TEST_SETTINGS> & { standbyRetryMs?: number } = {},
  ) {
    const s = { ...TEST_SETTINGS, ...overrides };
    const table = tableRelay(s.maxMessageBytes);
    const r = new WalRelay({
      pool,
      databaseUrl: url,
      kafka,
      topicPrefix: prefix,
      logger: log.logger,
      settings: { ...s, slot, standbyRetryMs: overrides.standbyRetryMs ?? 300 },
      onParked: () => table.wake(),
    });
    relays.push(r);
    return { wal: r, table };
  }

  function tableRelay(maxMessageBytes = TEST_SETTINGS.maxMessageBytes): OutboxRelay {
    const r = new OutboxRelay({
      pool,
      databaseUrl: url,
      kafka,
      topicPrefix: prefix,
      logger: log.logger,
      settings: { ...TEST_SETTINGS, retentionHours: 0, maxMessageBytes },
    });
    relays.push(r);
    return r;
  }

  async function emitTx(rows: readonly OutboxInsert[]): Promise<void> {
    const c = await pool.connect();
    try {
      await c.query('BEGIN');
      await writer.enqueue(c, rows);
      await c.query('COMMIT');
    } finally {
      c.release();
    }
  }

  async function consume(): Promise<Received[]> {
    const got: Received[] = [];
    const consumer = testKafka().consumer({ groupId: `${prefix}.${consumers.length}`, maxWaitTimeInMs: 100 });
    consumers.push(consumer);
    await consumer.connect();
    await consumer.subscribe({ topic: topicName(prefix, EVENTS), fromBeginning: true });
    await consumer.run({
      eachMessage: async ({ message, partition }) => {
        const value = message.value?.toString() ?? 'null';
        const body = JSON.parse(value) as { data?: { version?: number } };
        const headers: Record<string, string> = {};
        for (const [k, v] of Object.entries(message.headers ?? {})) headers[k] = v?.toString() ?? '';
        got.push({
          key: message.key?.toString() ?? '',
          eventId: headers['ce_id'] ?? '',
          version: body.data?.version ?? -1,
          partition,
          headers,
          value,
        });
      },
    });
    return got;
  }

  /** Per key, the versions in the order they first arrived (a redelivery repeats, never reorders). */
  function firstArrivals(got: readonly Received[], keyPrefix: string): Map<string, number[]> {
    const out = new Map<string, number[]>();
    const seen = new Set<string>();
    for (const m of got) {
      if (!m.key.startsWith(keyPrefix) || seen.has(m.eventId)) continue;
      seen.add(m.eventId);
      out.set(m.key, [...(out.get(m.key) ?? []), m.version]);
    }
    return out;
  }

  async function slotLag(slot: string): Promise<number> {
    const { rows } = await pool.query<{ lag: string }>(
      'SELECT pg_wal_lsn_diff(pg_current_wal_flush_lsn(), confirmed_flush_lsn) AS lag FROM pg_replication_slots WHERE slot_name = $1',
      [slot],
    );
    return Number(rows[0]?.lag ?? -1);
  }

  it('publishes in commit order, each key in version order, the payload as written, and confirms the slot', async () => {
    const slot = await newSlot();
    const got = await consume();
    const { wal, table } = walRelay(slot);
    await table.start();
    await wal.start();
    // Concurrent writers, one key each at a time (the ledger's row lock contract), several keys per transaction.
    const keys = range(1, 20).map((k) => `order/${k}`);
    await Promise.all(
      range(0, 3).map(async (w) => {
        for (let v = 1; v <= 10; v++)
          await emitTx(keys.filter((_, i) => i % 4 === w).map((k) => event(k, v)));
      }),
    );
    const byKey = await eventually(
      () => {
        const m = firstArrivals(got, 'order/');
        return [...m.values()].reduce((a, v) => a + v.length, 0) === 200 ? m : undefined;
      },
      { what: '200 events' },
    );
    for (const k of keys) assert.deepEqual(byKey.get(k), range(1, 10), k);
    const one = got.find((m) => m.eventId === 'order/1:1')!;
    assert.equal(one.value, JSON.stringify(event('order/1', 1).payload));
    assert.equal(one.headers['ce_type'], 'payout.status');
    assert.equal(one.headers['content-type'], 'application/json');
    // Nothing was written to the table; the slot's confirmed position catches up.
    assert.deepEqual((await pool.query('SELECT id FROM outbox')).rows, []);
    await eventually(async () => ((await slotLag(slot)) < 16_384 ? true : undefined), {
      what: 'slot confirmed',
    });
    await wal.stop();
    await table.stop();
  });

  it('loses nothing when the relay is stopped, or its connection killed, mid-stream', async () => {
    const slot = await newSlot();
    const got = await consume();
    const keys = range(1, 50).map((k) => `crash/${k}`);
    for (let v = 1; v <= 20; v++) await emitTx(keys.map((k) => event(k, v)));
    const first = walRelay(slot, { batchSize: 50 });
    await first.wal.start();
    await eventually(() => (got.length >= 100 ? true : undefined), { what: 'some events' });
    await first.wal.stop();
    const second = walRelay(slot, { batchSize: 50 });
    await second.wal.start();
    await eventually(() => (got.length >= 400 ? true : undefined), { what: 'more events' });
    // A crash as PostgreSQL sees it: the walsender's connection cut.
    await pool.query(
      'SELECT pg_terminate_backend(active_pid) FROM pg_replication_slots WHERE slot_name = $1',
      [slot],
    );
    const byKey = await eventually(
      () => {
        const m = firstArrivals(got, 'crash/');
        return [...m.values()].reduce((a, v) => a + v.length, 0) === 1000 ? m : undefined;
      },
      { what: 'all 1000 events', timeoutMs: 30_000 },
    );
    for (const k of keys) assert.deepEqual(byKey.get(k), range(1, 20), k);
    // A redelivery repeats a run of a key's events; each key's first arrivals stay in order.
    for (const [k, vs] of versionsByKey(got.filter((m) => m.key.startsWith('crash/'))))
      assert.ok(vs.length >= 20, k);
    await second.wal.stop();
  });

  it('publishes a transaction larger than two batches (the stream pauses, the batches go before its commit)', async () => {
    const slot = await newSlot();
    const got = await consume();
    const { wal } = walRelay(slot, { batchSize: 20 });
    await wal.start();
    await emitTx(range(1, 300).map((k) => event(`large/${k}`, 1)));
    await eventually(() => (firstArrivals(got, 'large/').size === 300 ? true : undefined), {
      what: '300 events of one transaction',
    });
    await eventually(async () => ((await slotLag(slot)) < 16_384 ? true : undefined), {
      what: 'slot confirmed',
    });
    await wal.stop();
  });

  it('parks a failed event as dead, holds its key behind it, lets other keys flow, and replays in order', async () => {
    const slot = await newSlot();
    const got = await consume();
    const { wal, table } = walRelay(slot, { maxAttempts: 1, maxMessageBytes: 2_000 });
    await table.start();
    await wal.start();
    const big = event('dead/a', 2, {
      payload: { ...event('dead/a', 2).payload, blob: 'x'.repeat(3_000) },
    });
    await emitTx([event('dead/a', 1), big, event('dead/b', 1)]);
    await emitTx([event('dead/a', 3), event('dead/b', 2)]);
    await eventually(() => (firstArrivals(got, 'dead/b').get('dead/b')?.length === 2 ? true : undefined), {
      what: 'the other key',
    });
    const states = await eventually(async () => {
      const { rows } = await pool.query<{ event_id: string; state: string }>(
        'SELECT event_id, state FROM outbox ORDER BY id',
      );
      return rows.length === 2 ? rows : undefined;
    });
    assert.deepEqual(states, [
      { event_id: 'dead/a:2', state: 'dead' },
      { event_id: 'dead/a:3', state: 'pending' },
    ]);
    // A later event of the key, written while it is blocked, waits behind it too.
    await emitTx([event('dead/a', 4)]);
    await eventually(
      async () => ((await pool.query('SELECT 1 FROM outbox')).rowCount === 3 ? true : undefined),
      {
        what: 'a:4 parked',
      },
    );
    await new Promise((r) => setTimeout(r, 300));
    assert.deepEqual(firstArrivals(got, 'dead/a').get('dead/a'), [1]);
    assert.deepEqual(
      (await repo.listDead(pool, { beforeId: undefined, limit: 10 })).map((d) => d.eventId),
      ['dead/a:2'],
    );
    // The operator raises the limit and replays: the key publishes in order, from the table.
    await table.stop();
    const bigger = tableRelay(1_000_000);
    assert.equal(await bigger.replayDead('dead/a:2'), 'replayed');
    await bigger.start();
    await eventually(() => (firstArrivals(got, 'dead/a').get('dead/a')?.length === 4 ? true : undefined), {
      what: 'the replayed key',
    });
    assert.deepEqual(firstArrivals(got, 'dead/a').get('dead/a'), [1, 2, 3, 4]);
    // With the table empty again, the key's next event goes straight from the WAL.
    await eventually(async () =>
      (await pool.query('SELECT 1 FROM outbox')).rowCount === 0 ? true : undefined,
    );
    await emitTx([event('dead/a', 5)]);
    await eventually(() => (firstArrivals(got, 'dead/a').get('dead/a')?.length === 5 ? true : undefined));
    await wal.stop();
    await bigger.stop();
  });

  it('serves rows the table transport left pending before their key’s WAL events (switching table -> wal)', async () => {
    const slot = await newSlot();
    const got = await consume();
    const c = await pool.connect();
    await repo.enqueue(c, [event('switch/a', 1), event('switch/a', 2)]);
    c.release();
    const { wal, table } = walRelay(slot);
    await wal.start();
    await emitTx([event('switch/a', 3), event('switch/b', 1)]);
    await eventually(() => (firstArrivals(got, 'switch/b').get('switch/b') ? true : undefined));
    assert.equal(firstArrivals(got, 'switch/a').get('switch/a'), undefined, 'a waits for its table rows');
    await table.start();
    await eventually(() => (firstArrivals(got, 'switch/a').get('switch/a')?.length === 3 ? true : undefined));
    assert.deepEqual(firstArrivals(got, 'switch/a').get('switch/a'), [1, 2, 3]);
    await wal.stop();
    await table.stop();
  });

  it('keeps each key in order through a Kafka outage: a failed batch ends the stream, nothing after it is sent', async () => {
    // A private broker frozen with SIGSTOP: every request times out (as in a broker restart).
    const broker = new PrivateBroker();
    await broker.start();
    const relayKafka = new Kafka({
      clientId: `wal-outage-${prefix}`,
      brokers: broker.brokers,
      logLevel: logLevel.NOTHING,
      requestTimeout: 1_000,
      retry: { retries: 1, initialRetryTime: 100, maxRetryTime: 300 },
    });
    const observer = new Kafka({
      clientId: `wal-outage-obs-${prefix}`,
      brokers: broker.brokers,
      logLevel: logLevel.NOTHING,
    });
    const consumer = observer.consumer({ groupId: `${prefix}.outage`, maxWaitTimeInMs: 100 });
    const slot = await newSlot();
    const relay = new WalRelay({
      pool,
      databaseUrl: url,
      kafka: relayKafka,
      topicPrefix: prefix,
      logger: log.logger,
      settings: { ...TEST_SETTINGS, batchSize: 10, slot, standbyRetryMs: 300 },
    });
    try {
      await ensureTopics(relayKafka, [{ topic: topicName(prefix, EVENTS), numPartitions: 3 }]);
      const got: Received[] = [];
      await consumer.connect();
      await consumer.subscribe({ topic: topicName(prefix, EVENTS), fromBeginning: true });
      await consumer.run({
        eachMessage: async ({ message }) => {
          const body = JSON.parse(message.value?.toString() ?? '{}') as { data?: { version?: number } };
          got.push({
            key: message.key?.toString() ?? '',
            eventId: message.headers?.['ce_id']?.toString() ?? '',
            version: body.data?.version ?? -1,
            partition: 0,
            headers: {},
            value: '',
          });
        },
      });
      await relay.start();
      const keys = range(1, 20).map((k) => `outage/${k}`);
      await emitTx(keys.map((k) => event(k, 1)));
      await eventually(() => (firstArrivals(got, 'outage/').size === 20 ? true : undefined), {
        what: 'the first versions',
        timeoutMs: 30_000,
      });
      await broker.pause();
      try {
        for (let v = 2; v <= 6; v++) await emitTx(keys.map((k) => event(k, v)));
        await new Promise((r) => setTimeout(r, 3_000));
      } finally {
        await broker.resume();
      }
      const byKey = await eventually(
        () => {
          const m = firstArrivals(got, 'outage/');
          return [...m.values()].every((vs) => vs.length === 6) ? m : undefined;
        },
        { what: 'every version after the outage', timeoutMs: 45_000 },
      );
      for (const k of keys) assert.deepEqual(byKey.get(k), range(1, 6), k);
      assert.equal((await pool.query("SELECT 1 FROM outbox WHERE message_key LIKE 'outage/%'")).rowCount, 0);
    } finally {
      await relay.stop();
      await consumer.disconnect().catch(() => undefined);
      await broker.destroy();
    }
  });

  it('lets one relay stream a slot while a second stands by, and takes over when the first stops', async () => {
    const slot = await newSlot();
    const got = await consume();
    const a = walRelay(slot);
    const b = walRelay(slot);
    await a.wal.start();
    await eventually(() => (a.wal.state === 'streaming' ? true : undefined));
    await b.wal.start();
    await eventually(() => (b.wal.state === 'standby' ? true : undefined), { what: 'standby' });
    await emitTx([event('standby/a', 1)]);
    await eventually(() => (got.some((m) => m.eventId === 'standby/a:1') ? true : undefined));
    await a.wal.stop();
    await emitTx([event('standby/a', 2)]);
    await eventually(() => (b.wal.state === 'streaming' ? true : undefined), { what: 'take-over' });
    await eventually(() => (got.some((m) => m.eventId === 'standby/a:2') ? true : undefined));
    await b.wal.stop();
  });

  it('survives a PostgreSQL restart: committed events are published once it is back', async () => {
    const slot = await newSlot();
    const got = await consume();
    const { wal } = walRelay(slot);
    await wal.start();
    await emitTx([event('restart/a', 1)]);
    await eventually(() => (got.some((m) => m.eventId === 'restart/a:1') ? true : undefined));
    await wal.stop();
    await emitTx([event('restart/a', 2)]); // committed, not yet streamed
    await wal.start();
    await cluster.stop('immediate');
    await cluster.start();
    // The pool's connections died with the server: the first statements may fail.
    await eventually(() => emitTx([event('restart/a', 3)]).then(() => true), { what: 'a write' });
    await eventually(
      () => (firstArrivals(got, 'restart/').get('restart/a')?.length === 3 ? true : undefined),
      {
        what: 'all after the restart',
        timeoutMs: 30_000,
      },
    );
    assert.deepEqual(firstArrivals(got, 'restart/').get('restart/a'), [1, 2, 3]);
    await wal.stop();
  });

  it('runs the service with OUTBOX_TRANSPORT=wal: a payout’s events come through the slot, readiness watches it', async () => {
    const svcUrl = cluster.url('wal_outbox_service_test');
    await ensureDatabase(svcUrl);
    await runMigrations(svcUrl);
    const stack = await startStack({ env: FAST_RECONCILE });
    try {
      await stack.registerBeneficiary({
        beneId: 'WAL1',
        bankAccount: '026291800001191',
        ifsc: 'YESB0000262',
      });
      const svc = await stack.startService({
        DATABASE_URL: svcUrl,
        OUTBOX_TRANSPORT: 'wal',
        OUTBOX_WAL_SLOT: 'wal_service_test',
      });
      await stack.send({
        type: 'payout.standard_transfer',
        data: { transferId: 'wal_1', beneId: 'WAL1', amount: '10.00', transferMode: 'banktransfer' },
      });
      await stack.waitForStatus('wal_1', 'SUCCESS');
      assert.deepEqual(
        stack.eventsOf('wal_1').map((e) => e.data.status),
        ['RECEIVED', 'SUBMITTING', 'SUCCESS'],
      );
      const c = new pg.Client({ connectionString: svcUrl });
      await c.connect();
      try {
        assert.equal((await c.query('SELECT 1 FROM outbox')).rowCount, 0, 'no outbox rows in wal mode');
        const ready = (await (await fetch(`${svc.url}/health/ready`)).json()) as {
          info?: Record<string, { status: string }>;
        };
        assert.equal(ready.info?.['outboxSlot']?.status, 'up');
      } finally {
        await c.end();
      }
    } finally {
      await stack.close();
    }
  });

  it('refuses OUTBOX_TRANSPORT=wal on a server without wal_level=logical, saying so', async (t) => {
    const db = await createTestDatabase();
    const c = new pg.Client({ connectionString: db.url });
    await c.connect();
    try {
      const level = (await c.query<{ wal_level: string }>('SHOW wal_level')).rows[0]?.wal_level;
      if (level === 'logical') return t.skip('the system PostgreSQL has wal_level=logical');
      await assert.rejects(
        () => prepareWalOutbox(c, 'never_created', log.logger),
        (e: unknown) =>
          e instanceof ConfigError &&
          /needs wal_level=logical; this PostgreSQL has wal_level=/.test(e.message),
      );
      // The service refuses to start (main.ts exits 78 on a ConfigError).
      await assert.rejects(
        () =>
          startService(
            loadServiceConfig(
              testServiceEnv({
                databaseUrl: db.url,
                topicPrefix: prefix,
                extra: { OUTBOX_TRANSPORT: 'wal' },
              }),
            ),
            log.logger,
          ),
        (e: unknown) => e instanceof ConfigError && /wal_level=logical/.test(e.message),
      );
      const slots = await c.query("SELECT 1 FROM pg_replication_slots WHERE slot_name = 'never_created'");
      assert.equal(slots.rowCount, 0);
    } finally {
      await c.end();
      await db.drop();
    }
  });
});

function testKafkaBrokers(): string[] {
  return (process.env['TEST_KAFKA_BROKERS'] ?? '127.0.0.1:9092').split(',');
}
