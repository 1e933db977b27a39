import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { ConfigError, developmentValuesInUse, type ConfigSection } from '#config';
import { DEVELOPMENT_ENCRYPTION_KEY } from '#ledger';
import { SERVICE_DEVELOPMENT_DEFAULTS } from './development-defaults.js';
import { loadServiceConfig, serviceConfigSections } from './service.config.js';

/** A default that only makes sense on a developer's machine: this machine, the sandbox, "dev". */
const DEVELOPMENT_LOOKING = /127\.0\.0\.1|localhost|::1|sandbox|\bdev\b|^dev-|development/i;

const OWN_KEY = Buffer.alloc(32, 42).toString('base64');
const sha = (s: string) => createHash('sha256').update(s).digest('hex');

/** A production environment with nothing left at a development value. */
const PRODUCTION: Record<string, string> = {
  DEPLOYMENT_MODE: 'production',
  DATABASE_URL: 'postgres://payouts:db-password-9f2@db.internal:5432/payouts',
  KAFKA_BROKERS: 'kafka-0.internal:9092,kafka-1.internal:9092',
  PROVIDER_BASE_URL: 'https://api.provider.example/payout',
  PROVIDER_PAYOUT_URL: 'https://payout-api.provider.example',
  PROVIDER_CLIENT_ID: 'CF-live-client',
  PROVIDER_CLIENT_SECRET: 'live-secret-7c1e',
  LEDGER_ENCRYPTION_KEY: OWN_KEY,
  LEDGER_ENCRYPTION_KEY_ID: 'prod-1',
  DEAD_LETTER_DIGEST_KEY: Buffer.alloc(32, 43).toString('base64'),
};

function productionProblems(env: Record<string, string>): ConfigError {
  try {
    loadServiceConfig(env);
  } catch (e) {
    if (e instanceof ConfigError) return e;
    throw e;
  }
  assert.fail('the configuration was accepted');
}

describe('development defaults (DEPLOYMENT_MODE)', () => {
  it('has a row for every sensitive variable with a default, and for every default naming this machine, the sandbox or dev', () => {
    const covered = new Set(SERVICE_DEVELOPMENT_DEFAULTS.map((r) => r.variable));
    const missing: string[] = [];
    for (const section of serviceConfigSections as readonly ConfigSection[])
      for (const [name, spec] of Object.entries(section.vars)) {
        const d = spec.default?.trim() ?? '';
        if (d === '' || name === 'DEPLOYMENT_MODE') continue;
        if ((spec.sensitive || DEVELOPMENT_LOOKING.test(d)) && !covered.has(name)) missing.push(name);
      }
    assert.deepEqual(missing, [], 'add a row to SERVICE_DEVELOPMENT_DEFAULTS (development-defaults.ts)');
  });

  it('names only variables the service declares, once each', () => {
    const names = SERVICE_DEVELOPMENT_DEFAULTS.map((r) => r.variable);
    assert.equal(new Set(names).size, names.length);
    assert.doesNotThrow(() =>
      developmentValuesInUse(serviceConfigSections, SERVICE_DEVELOPMENT_DEFAULTS, {}),
    );
    assert.throws(
      () => developmentValuesInUse(serviceConfigSections, [{ variable: 'NO_SUCH_VAR', why: 'x' }], {}),
      /NO_SUCH_VAR/,
    );
  });

  it('in production, an empty environment is refused with one problem per development default, no value printed', () => {
    const e = productionProblems({ DEPLOYMENT_MODE: 'production' });
    const named = e.problems.map((p) => /^[A-Z_]+/.exec(p)?.[0]);
    assert.deepEqual(named, [
      'DATABASE_URL',
      'KAFKA_BROKERS',
      'PROVIDER_BASE_URL',
      'PROVIDER_PAYOUT_URL',
      'PROVIDER_CLIENT_ID',
      'PROVIDER_CLIENT_SECRET',
      'LEDGER_ENCRYPTION_KEY',
      'LEDGER_ENCRYPTION_KEY_ID',
      'DEAD_LETTER_DIGEST_KEY',
    ]);
    assert.match(e.message, /Invalid configuration \(9 problems\)/);
    assert.match(e.message, /DEPLOYMENT_MODE=production refuses every development default/);
    assert.doesNotMatch(e.message, /sandbox_client_secret/);
    assert.ok(!e.message.includes(DEVELOPMENT_ENCRYPTION_KEY));
  });

  it('in production, accepts an environment with its own values', () => {
    const c = loadServiceConfig(PRODUCTION);
    assert.equal(c.deployment.DEPLOYMENT_MODE, 'production');
    assert.deepEqual(c.developmentValues, []);
  });

  it('in development (the default), starts on the development values and lists them for the boot warning', () => {
    const c = loadServiceConfig({});
    assert.equal(c.deployment.DEPLOYMENT_MODE, 'development');
    assert.deepEqual(
      c.developmentValues.map((d) => d.variable),
      [
        'DATABASE_URL',
        'KAFKA_BROKERS',
        'PROVIDER_BASE_URL',
        'PROVIDER_PAYOUT_URL',
        'PROVIDER_CLIENT_ID',
        'PROVIDER_CLIENT_SECRET',
        'LEDGER_ENCRYPTION_KEY',
        'LEDGER_ENCRYPTION_KEY_ID',
        'DEAD_LETTER_DIGEST_KEY',
      ],
    );
  });

  it('refuses a development value set explicitly, in any spelling, without quoting it', () => {
    const demoToken = sha('demo-token-0123456789abcdefghij');
    const e = productionProblems({
      ...PRODUCTION,
      PROVIDER_CLIENT_SECRET: 'sandbox_client_secret',
      LEDGER_ENCRYPTION_KEY: DEVELOPMENT_ENCRYPTION_KEY.replace(/=+$/, ''),
      LEDGER_PREVIOUS_KEYS: `old-1:${OWN_KEY.replace('q', 'r')},dev-1:${DEVELOPMENT_ENCRYPTION_KEY}`,
      PROVIDER_ACCOUNTS: JSON.stringify([
        { accountId: 'a', clientId: 'live-a', clientSecret: 'live-a-secret' },
        { accountId: 'b', clientId: 'sandbox_client_id', clientSecret: 'sandbox_client_secret' },
      ]),
      OPS_OPERATORS: `demo-operator:operator:${demoToken},alice:approver:${sha('')},bob:viewer:${sha('bob-token-0123456789abcdefgh')}`,
    });
    const byVar = new Map(e.problems.map((p) => [/^[A-Z_]+/.exec(p)?.[0], p]));
    assert.match(byVar.get('PROVIDER_CLIENT_SECRET') ?? '', /set to its development default/);
    assert.match(byVar.get('LEDGER_ENCRYPTION_KEY') ?? '', /development key/);
    assert.match(byVar.get('LEDGER_PREVIOUS_KEYS') ?? '', /key dev-1 is the development key/);
    assert.doesNotMatch(byVar.get('LEDGER_PREVIOUS_KEYS') ?? '', /old-1/);
    assert.match(byVar.get('PROVIDER_ACCOUNTS') ?? '', /entry 2 \(clientId, clientSecret\)/);
    assert.match(byVar.get('OPS_OPERATORS') ?? '', /demo-operator is the demo's/);
    assert.match(byVar.get('OPS_OPERATORS') ?? '', /alice signs in with an empty token/);
    assert.doesNotMatch(byVar.get('OPS_OPERATORS') ?? '', /bob/);
    for (const secret of [
      'sandbox_client_secret',
      DEVELOPMENT_ENCRYPTION_KEY.slice(0, 20),
      demoToken,
      'live-a-secret',
    ])
      assert.ok(!e.message.includes(secret), `the message quotes ${secret}`);
  });

  it('refuses provider hosts that are a sandbox or plain http to another machine', () => {
    const hostProblem = (url: string) =>
      (() => {
        try {
          loadServiceConfig({ ...PRODUCTION, PROVIDER_BASE_URL: url });
          return undefined;
        } catch (e) {
          return e instanceof ConfigError ? e.problems.join('\n') : String(e);
        }
      })();
    assert.match(hostProblem('sandbox') ?? '', /PROVIDER_BASE_URL is set to its development default/);
    assert.match(hostProblem('https://sandbox.cashfree.com/payout') ?? '', /is a sandbox/);
    assert.match(hostProblem('http://sandbox:8090') ?? '', /is a sandbox/);
    assert.match(hostProblem('http://provider.example') ?? '', /plain http to provider\.example/);
    assert.equal(hostProblem('http://127.0.0.1:8443'), undefined, 'a local egress proxy is fine');
    assert.equal(hostProblem('http://localhost:8443'), undefined);
    assert.equal(hostProblem('https://api.cashfree.com/payout'), undefined);
  });

  it('lists schema problems and development defaults together, in one error', () => {
    const e = productionProblems({ DEPLOYMENT_MODE: 'production', HTTP_PORT: 'eighty' });
    assert.equal(e.problems.length, 10);
    assert.match(e.problems[0] ?? '', /^HTTP_PORT="eighty" is invalid/);
  });
});
