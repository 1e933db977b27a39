import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError, describeConfig, loadConfig } from './load-config.js';
import { coreConfig, providerHostsConfig, resolveProviderHosts } from './core.config.js';

describe('loadConfig', () => {
  it('applies the documented defaults on an empty environment', () => {
    const [core, hosts] = loadConfig([coreConfig, providerHostsConfig], {});
    assert.equal(core.DATABASE_URL, 'postgres://postgres@127.0.0.1:5432/payouts');
    assert.deepEqual(core.KAFKA_BROKERS, ['127.0.0.1:9092']);
    assert.equal(core.HTTP_PORT, 3000);
    assert.deepEqual(resolveProviderHosts(hosts), {
      baseUrl: 'http://127.0.0.1:8090',
      payoutUrl: 'http://127.0.0.1:8090',
    });
  });

  it('lists every problem in one error and never prints a sensitive value', () => {
    const secretUrl = 'mysql://admin:hunter2@db/x';
    let caught: unknown;
    try {
      loadConfig([coreConfig, providerHostsConfig], {
        DATABASE_URL: secretUrl,
        HTTP_PORT: 'eighty',
        KAFKA_BROKERS: 'no-port-here',
        SANDBOX_PORT: '70000',
      });
    } catch (e) {
      caught = e;
    }
    assert.ok(caught instanceof ConfigError);
    assert.equal(caught.problems.length, 4);
    for (const name of ['DATABASE_URL', 'HTTP_PORT', 'KAFKA_BROKERS', 'SANDBOX_PORT']) {
      assert.match(caught.message, new RegExp(name));
    }
    assert.doesNotMatch(caught.message, /hunter2/);
    assert.match(caught.message, /DATABASE_URL=<redacted>/);
  });

  it('masks sensitive values when describing the effective configuration', () => {
    const d = describeConfig([coreConfig], { DATABASE_URL: 'postgres://u:secret@h/db' });
    assert.equal(d['DATABASE_URL'], '<redacted>');
    assert.equal(d['HTTP_PORT'], '3000');
  });
});
