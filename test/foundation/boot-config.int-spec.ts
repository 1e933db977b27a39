import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';

const MAIN = resolve(import.meta.dirname, '../../apps/payout-service/src/main.js');

describe('service boot with a bad environment', () => {
  it('stops with one message listing every problem, and prints no secret', () => {
    const r = spawnSync(process.execPath, [MAIN], {
      env: {
        PATH: process.env['PATH'] ?? '',
        DATABASE_URL: 'postgres://payouts:correct-horse@db:notaport/payouts',
        KAFKA_BROKERS: 'kafka-without-port',
        HTTP_PORT: '-1',
        LOG_LEVEL: 'loud',
      },
      encoding: 'utf8',
      timeout: 20_000,
    });
    assert.equal(r.status, 78, `exit code (stderr: ${r.stderr})`);
    const out = r.stderr + r.stdout;
    assert.match(out, /Invalid configuration \(4 problems\)/);
    for (const name of ['DATABASE_URL', 'KAFKA_BROKERS', 'HTTP_PORT', 'LOG_LEVEL'])
      assert.match(out, new RegExp(name));
    assert.doesNotMatch(out, /correct-horse/);
  });

  it('refuses an operator token given in clear (OPS_OPERATORS takes only SHA-256 hashes), without printing it', () => {
    const r = spawnSync(process.execPath, [MAIN], {
      env: {
        PATH: process.env['PATH'] ?? '',
        OPS_OPERATORS: 'alice:approver:plain-text-token-0123456789abcdef',
      },
      encoding: 'utf8',
      timeout: 20_000,
    });
    assert.equal(r.status, 78, `exit code (stderr: ${r.stderr})`);
    const out = r.stderr + r.stdout;
    assert.match(out, /OPS_OPERATORS/);
    assert.match(out, /SHA-256/);
    assert.doesNotMatch(out, /plain-text-token/);
  });
});
