import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { withDatabase } from '#database';
import {
  createServiceTopics,
  createTestDatabase,
  TEST_DATABASE_URL,
  TEST_KAFKA_BROKERS,
  testTopicPrefix,
  type TestDatabase,
} from '#test-support';

const MAIN = 'dist/apps/payout-service/src/main.js';

/** A port nothing listens on: bound, then closed. */
async function closedPort(): Promise<number> {
  const s = createServer().listen(0, '127.0.0.1');
  await once(s, 'listening');
  const address = s.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  await new Promise((r) => s.close(r));
  return port;
}

interface Run {
  readonly child: ChildProcess;
  readonly out: string[];
  readonly exited: Promise<{ code: number | null; ms: number }>;
}

/** Every child this file starts: killed when the file ends, whatever happened (a timed-out test never reaches its finally). */
const children = new Set<ChildProcess>();

function runService(env: Record<string, string>): Run {
  const started = Date.now();
  const child = spawn(process.execPath, [MAIN], {
    env: { PATH: process.env['PATH'] ?? '', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  // A boot that never ends (the defect this file is about) must not outlive the test.
  const limit = setTimeout(() => child.kill('SIGKILL'), 30_000);
  child.once('exit', () => {
    clearTimeout(limit);
    children.delete(child);
  });
  const out: string[] = [];
  const keep = (b: Buffer) => out.push(...b.toString().split('\n').filter(Boolean));
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = once(child, 'exit').then(([code]) => ({
    code: code as number | null,
    ms: Date.now() - started,
  }));
  return { child, out, exited };
}

async function health(port: number, path: string): Promise<{ status: number; body: unknown }> {
  for (let i = 0; ; i++) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}${path}`);
      return { status: res.status, body: await res.json() };
    } catch (e) {
      if (i > 300) throw e; // 15 s: a loaded machine starts Node slowly
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

function kill(run: Run): void {
  if (run.child.exitCode === null && run.child.signalCode === null) run.child.kill('SIGKILL');
}

describe('boot with dependencies missing: the health listener at once, a bounded wait, one exit', () => {
  let db: TestDatabase;
  let prefix: string;
  before(async () => {
    db = await createTestDatabase();
    prefix = testTopicPrefix();
    await createServiceTopics(prefix);
  });
  after(async () => {
    for (const c of children) c.kill('SIGKILL');
    await db?.drop();
  });

  const env = (extra: Record<string, string>) => ({
    DATABASE_URL: db.url,
    KAFKA_BROKERS: TEST_KAFKA_BROKERS.join(','),
    KAFKA_TOPIC_PREFIX: prefix,
    KAFKA_CLIENT_ID: `svc-${prefix}`,
    ...extra,
  });

  it('Kafka unreachable (a closed port): live at once, not ready naming kafka, then exit 69 after BOOT_DEPENDENCY_TIMEOUT_MS', async () => {
    const [port, kafkaPort] = [await closedPort(), await closedPort()];
    const run = runService(
      env({
        HTTP_PORT: String(port),
        KAFKA_BROKERS: `127.0.0.1:${kafkaPort}`,
        BOOT_DEPENDENCY_TIMEOUT_MS: '4000',
      }),
    );
    try {
      const live = await health(port, '/health/live');
      assert.equal(live.status, 200);
      const ready = await health(port, '/health/ready');
      assert.equal(ready.status, 503);
      const body = ready.body as { waitingFor: Record<string, string> };
      // Until Postgres has answered and Kafka's first attempt failed (under load, more than 700 ms).
      let again = body;
      for (let i = 0; i < 50; i++) {
        await new Promise((r) => setTimeout(r, 200));
        again = (await health(port, '/health/ready')).body as { waitingFor: Record<string, string> };
        if (
          again.waitingFor['postgres'] === undefined &&
          /ECONNREFUSED|Connection error/i.test(again.waitingFor['kafka'] ?? '')
        )
          break;
      }
      assert.match(again.waitingFor['kafka'] ?? JSON.stringify(body), /ECONNREFUSED|Connection error/i);
      assert.equal(again.waitingFor['postgres'], undefined, 'postgres answered');
      const { code, ms } = await run.exited;
      assert.equal(code, 69, run.out.join('\n'));
      assert.ok(ms >= 4000 && ms < 12_000, `exited after ${ms} ms`);
      const text = run.out.join('\n');
      assert.match(
        text,
        /Dependencies unavailable after \d+ s \(BOOT_DEPENDENCY_TIMEOUT_MS=4000\):\n {2}- kafka /,
      );
      const attempts = run.out.filter((l) => l.includes('"waiting for kafka'));
      assert.ok(
        attempts.length >= 2 && attempts.length <= 6,
        `${attempts.length} attempt lines in 4 s (backoff)`,
      );
      assert.equal(
        run.out.filter((l) => l.includes('"waiting for postgres')).length,
        0,
        'nothing logged about a dependency that answered',
      );
    } finally {
      kill(run);
    }
  });

  it('PostgreSQL unreachable (a closed port): the same wait and the same exit 69, no password printed', async () => {
    const [port, pgPort] = [await closedPort(), await closedPort()];
    const run = runService(
      env({
        HTTP_PORT: String(port),
        DATABASE_URL: `postgres://payouts:pg-secret-4471@127.0.0.1:${pgPort}/payouts`,
        BOOT_DEPENDENCY_TIMEOUT_MS: '3000',
      }),
    );
    try {
      assert.equal((await health(port, '/health/live')).status, 200);
      const { code, ms } = await run.exited;
      const text = run.out.join('\n');
      assert.equal(code, 69, text);
      assert.ok(ms < 10_000, `exited after ${ms} ms`);
      assert.match(text, /\n {2}- postgres 127\.0\.0\.1:\d+\/payouts: .*ECONNREFUSED/);
      assert.doesNotMatch(text, /pg-secret-4471/);
    } finally {
      kill(run);
    }
  });

  it('a database that does not exist is a configuration error: exit 78 at once, naming DATABASE_URL', async () => {
    const port = await closedPort();
    const missing = withDatabase(TEST_DATABASE_URL, `${db.name}_missing`);
    const run = runService(
      env({ HTTP_PORT: String(port), DATABASE_URL: missing, BOOT_DEPENDENCY_TIMEOUT_MS: '60000' }),
    );
    try {
      const { code, ms } = await run.exited;
      const text = run.out.join('\n');
      assert.equal(code, 78, text);
      assert.ok(ms < 10_000, `exited after ${ms} ms, not after the wait`);
      assert.match(
        text,
        /Invalid configuration \(1 problem\):\n {2}- DATABASE_URL: postgres .*the database does not exist/,
      );
    } finally {
      kill(run);
    }
  });

  it('a database without the schema is waited for (the migration Job may be running), then exit 69 saying to migrate', async () => {
    const empty = await createTestDatabase({ empty: true });
    const port = await closedPort();
    const run = runService(
      env({ HTTP_PORT: String(port), DATABASE_URL: empty.url, BOOT_DEPENDENCY_TIMEOUT_MS: '5000' }),
    );
    try {
      // Until the first attempt has answered (a fixed 800 ms was too short on a loaded machine).
      let ready = { waitingFor: {} as Record<string, string> };
      for (let i = 0; i < 20 && !ready.waitingFor['postgres']; i++) {
        await new Promise((r) => setTimeout(r, 200));
        ready = (await health(port, '/health/ready')).body as { waitingFor: Record<string, string> };
      }
      assert.match(ready.waitingFor['postgres'] ?? '', /the database has no schema; run the migrations/);
      const { code } = await run.exited;
      assert.equal(code, 69, run.out.join('\n'));
      assert.match(run.out.join('\n'), /- postgres .*has no schema; run the migrations/);
    } finally {
      kill(run);
      await empty.drop();
    }
  });

  it('development (the default) still starts, with one warning naming every development default in use', async () => {
    const port = await closedPort();
    const run = runService(env({ HTTP_PORT: String(port) }));
    try {
      for (let i = 0; ; i++) {
        const r = await health(port, '/health/live').catch(() => undefined);
        if (r?.status === 200 && run.out.some((l) => l.includes('payout service started'))) break;
        if (i > 300) assert.fail(`not started:\n${run.out.slice(-10).join('\n')}`);
        await new Promise((r) => setTimeout(r, 100));
      }
      const warnings = run.out.filter((l) => l.includes('running on development defaults'));
      assert.equal(warnings.length, 1);
      const line = JSON.parse(warnings[0] ?? '{}') as { developmentDefaults?: string[] };
      assert.deepEqual(line.developmentDefaults, [
        'KAFKA_BROKERS', // the test broker is the development one
        'PROVIDER_BASE_URL',
        'PROVIDER_PAYOUT_URL',
        'PROVIDER_CLIENT_ID',
        'PROVIDER_CLIENT_SECRET',
        'LEDGER_ENCRYPTION_KEY',
        'LEDGER_ENCRYPTION_KEY_ID',
        'DEAD_LETTER_DIGEST_KEY',
      ]);
      assert.doesNotMatch(warnings[0] ?? '', /sandbox_client_secret/);
      run.child.kill('SIGTERM');
      assert.equal((await run.exited).code, 0);
    } finally {
      kill(run);
    }
  });

  it('a SIGTERM during the wait stops it at once with exit 0', async () => {
    const [port, kafkaPort] = [await closedPort(), await closedPort()];
    const run = runService(env({ HTTP_PORT: String(port), KAFKA_BROKERS: `127.0.0.1:${kafkaPort}` }));
    try {
      assert.equal((await health(port, '/health/live')).status, 200);
      run.child.kill('SIGTERM');
      const { code } = await run.exited;
      assert.equal(code, 0, run.out.join('\n'));
    } finally {
      kill(run);
    }
  });
});
