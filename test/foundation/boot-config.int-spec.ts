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

  it("refuses accounts that share a client secret (the webhook key): A's webhook would verify on B's path (issue 30, defect 6)", () => {
    const r = spawnSync(process.execPath, [MAIN], {
      env: {
        PATH: process.env['PATH'] ?? '',
        PROVIDER_ACCOUNT_ID: 'acc_a',
        PROVIDER_CLIENT_ID: 'client-a',
        PROVIDER_CLIENT_SECRET: 'shared-secret-value-1234',
        PROVIDER_ACCOUNTS: JSON.stringify([
          { accountId: 'acc_b', clientId: 'client-b', clientSecret: 'shared-secret-value-1234' },
          { accountId: 'acc_c', clientId: 'client-c', clientSecret: 'own-secret-of-c-5678' },
        ]),
      },
      encoding: 'utf8',
      timeout: 20_000,
    });
    assert.equal(r.status, 78, `exit code (stderr: ${r.stderr})`);
    const out = r.stderr + r.stdout;
    assert.match(out, /accounts acc_a and acc_b share a client secret/);
    assert.match(out, /webhook/);
    assert.doesNotMatch(out, /acc_c/);
    assert.doesNotMatch(out, /shared-secret-value|own-secret-of-c/);
  });

  it('in production, refuses every development default with exit 78 and one list, before opening a listener, printing no secret', () => {
    const started = Date.now();
    const r = spawnSync(process.execPath, [MAIN], {
      env: {
        PATH: process.env['PATH'] ?? '',
        DEPLOYMENT_MODE: 'production',
        // A listener would be a bug: the port is asked for and must stay closed.
        HTTP_PORT: '0',
        PROVIDER_CLIENT_SECRET: 'sandbox_client_secret',
        PROVIDER_BASE_URL: 'http://provider.example',
        LEDGER_PREVIOUS_KEYS: `dev-0:${Buffer.alloc(32, 7).toString('base64')}`,
      },
      encoding: 'utf8',
      timeout: 20_000,
    });
    assert.equal(r.status, 78, `exit code (stderr: ${r.stderr})`);
    assert.ok(Date.now() - started < 10_000, 'said at once');
    const out = r.stderr + r.stdout;
    assert.match(out, /Invalid configuration \(10 problems\)/);
    for (const name of [
      'DATABASE_URL',
      'KAFKA_BROKERS',
      'PROVIDER_BASE_URL',
      'PROVIDER_PAYOUT_URL',
      'PROVIDER_CLIENT_ID',
      'PROVIDER_CLIENT_SECRET',
      'LEDGER_ENCRYPTION_KEY',
      'LEDGER_ENCRYPTION_KEY_ID',
      'LEDGER_PREVIOUS_KEYS',
      'DEAD_LETTER_DIGEST_KEY',
    ])
      assert.match(out, new RegExp(`- ${name}\\b`));
    assert.match(out, /plain http to provider\.example/);
    assert.match(out, /DEPLOYMENT_MODE=production refuses every development default/);
    assert.doesNotMatch(out, /sandbox_client_secret|BwcHBwcH/);
    assert.doesNotMatch(out, /listening|started/i);
    assert.equal(out.trim().split('\n').length, 12, `one message and nothing else:\n${out}`);
  });

  it('the provider sandbox fails the same way: exit 78 and one list, no stack trace, no secret', () => {
    const r = spawnSync(
      process.execPath,
      [resolve(import.meta.dirname, '../../apps/provider-sandbox/src/main.js')],
      {
        env: {
          PATH: process.env['PATH'] ?? '',
          SANDBOX_PORT: '70000',
          SANDBOX_CLIENT_SECRET: '',
          SANDBOX_WEBHOOK_URL: 'ftp://hooks',
        },
        encoding: 'utf8',
        timeout: 20_000,
      },
    );
    assert.equal(r.status, 78, `exit code (stderr: ${r.stderr})`);
    assert.match(r.stderr, /Invalid configuration \(2 problems\)/);
    assert.match(r.stderr, /SANDBOX_PORT/);
    assert.match(r.stderr, /SANDBOX_WEBHOOK_URL/);
    assert.doesNotMatch(r.stderr, /at .*\.js:\d+/);
  });
});
