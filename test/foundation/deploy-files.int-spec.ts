import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parse } from 'yaml';
import { CONSOLE_DIR } from '../../apps/payout-service/src/console.controller.js';
import { SERVICE_NODE_FLAGS } from '../../apps/payout-service/src/node-flags.js';

const ROOT = resolve(import.meta.dirname, '../../..');

interface ComposeService {
  image?: string;
  build?: unknown;
  command?: string[];
  environment?: Record<string, string | number>;
  depends_on?: Record<string, { condition: string }> | string[];
}

// Docker cannot run on the machines this project is developed and tested on; these checks keep
// the files users run with Docker honest: they parse and name what exists.
describe('docker-compose.yml and Dockerfile', () => {
  // Merge keys applied, as compose does (`<<: *service`: the roles share one definition).
  const compose = parse(readFileSync(resolve(ROOT, 'docker-compose.yml'), 'utf8'), { merge: true }) as {
    services: Record<string, ComposeService>;
  };

  it('defines Kafka (KRaft), Postgres, the service (a container per role), the sandbox and Prometheus', () => {
    const roles = ['intake', 'executor', 'reconciler', 'relay', 'queries', 'webhooks'];
    for (const s of ['kafka', 'postgres', ...roles, 'sandbox', 'prometheus', 'migrate']) {
      assert.ok(compose.services[s], `service ${s}`);
    }
    assert.equal(compose.services['kafka']?.environment?.['KAFKA_PROCESS_ROLES'], 'broker,controller');
  });

  it('points every depends_on at a defined service and every command at a compiled entry point', () => {
    const src = new Map([
      ['dist/apps/provider-sandbox/src/main.js', 'apps/provider-sandbox/src/main.ts'],
      ['dist/libs/database/src/cli/migrate.js', 'libs/database/src/cli/migrate.ts'],
    ]);
    for (const [name, svc] of Object.entries(compose.services)) {
      const deps = Array.isArray(svc.depends_on) ? svc.depends_on : Object.keys(svc.depends_on ?? {});
      for (const dep of deps) assert.ok(compose.services[dep], `${name} -> ${dep}`);
      const entry = svc.command?.[1];
      if (svc.command?.[0] === 'node' && entry) {
        const ts = src.get(entry);
        assert.ok(ts, `known entry ${entry}`);
        assert.doesNotThrow(() => readFileSync(resolve(ROOT, ts)), `${ts} exists`);
      }
    }
  });

  it('builds on Node 24 in stages and runs the service entry point', () => {
    const df = readFileSync(resolve(ROOT, 'Dockerfile'), 'utf8');
    assert.equal((df.match(/^FROM node:24/gm) ?? []).length, 2);
    const flags = SERVICE_NODE_FLAGS.map((f) => `"${f}", `).join('');
    assert.ok(
      df.includes(`CMD ["node", ${flags}"dist/apps/payout-service/src/main.js"]`),
      `the service runs with its V8 flags (${SERVICE_NODE_FLAGS.join(' ')})`,
    );
    readFileSync(resolve(ROOT, 'apps/payout-service/src/main.ts'));
    readFileSync(resolve(ROOT, 'deploy/prometheus.yml'));
  });

  it('ships the web console beside dist/, where the service reads it (/app/apps/payout-service/console)', () => {
    const df = readFileSync(resolve(ROOT, 'Dockerfile'), 'utf8');
    const runtime = df.slice(df.lastIndexOf('FROM node:24'));
    assert.ok(runtime.includes('COPY apps/payout-service/console ./apps/payout-service/console'));
    assert.equal(resolve(CONSOLE_DIR), resolve(ROOT, 'apps/payout-service/console'));
    readFileSync(resolve(CONSOLE_DIR, 'index.html'));
  });

  it('npm run demo starts the service with the same V8 flags as the image', () => {
    const demo = readFileSync(resolve(ROOT, 'scripts/demo.sh'), 'utf8');
    assert.ok(demo.includes(`SERVICE_NODE_FLAGS="${SERVICE_NODE_FLAGS.join(' ')}"`));
    const starts = demo.match(/node [^\n]*dist\/apps\/payout-service\/src\/main\.js/g) ?? [];
    assert.ok(starts.length > 0);
    for (const s of starts) assert.match(s, /node \$SERVICE_NODE_FLAGS dist/);
  });
});
