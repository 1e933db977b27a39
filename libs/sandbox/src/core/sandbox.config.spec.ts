import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfig } from '#config';
import { optionsFromConfig } from '../start-sandbox.js';
import { sandboxConfig } from './sandbox.config.js';

describe('sandboxConfig', () => {
  it('has the documented defaults', () => {
    const [cfg] = loadConfig([sandboxConfig], {});
    assert.equal(cfg.SANDBOX_CLIENT_ID, 'sandbox_client_id');
    assert.equal(cfg.SANDBOX_CLIENT_SECRET, 'sandbox_client_secret');
    assert.deepEqual(cfg.SANDBOX_ALLOWED_IPS, ['127.0.0.1', '::1', '::ffff:127.0.0.1']);
    assert.equal(cfg.SANDBOX_TOKEN_TTL_SECONDS, 360);
    assert.equal(cfg.SANDBOX_HANG_MS, 25_000);
  });
  it('the bank calendar and the late reversal: weekends, holidays, 3 days by default', () => {
    const [none] = loadConfig([sandboxConfig], {});
    const defaults = optionsFromConfig(none, undefined);
    assert.deepEqual([defaults.weekendDays, defaults.holidays], [[0, 6], []]);
    assert.equal(defaults.lateReversalMs, 3 * 24 * 60 * 60_000);
    const [set] = loadConfig([sandboxConfig], {
      SANDBOX_WEEKEND_DAYS: '0',
      SANDBOX_HOLIDAYS: '2026-12-25,2027-01-26',
      SANDBOX_LATE_REVERSAL_MS: '60000',
    });
    const opts = optionsFromConfig(set, undefined);
    assert.deepEqual([opts.weekendDays, opts.holidays], [[0], ['2026-12-25', '2027-01-26']]);
    assert.equal(opts.lateReversalMs, 60_000);
    assert.throws(() => loadConfig([sandboxConfig], { SANDBOX_HOLIDAYS: '25-12-2026' }));
  });
  it("an empty or 'none' allow-list allows nobody", () => {
    const [none] = loadConfig([sandboxConfig], { SANDBOX_ALLOWED_IPS: 'none' });
    assert.deepEqual(none.SANDBOX_ALLOWED_IPS, []);
    const [empty] = loadConfig([sandboxConfig], { SANDBOX_ALLOWED_IPS: '' });
    assert.deepEqual(optionsFromConfig(empty, '').allowedIps, []);
  });
  it('rate limits map onto option groups, 0 disabling', () => {
    const [cfg] = loadConfig([sandboxConfig], { SANDBOX_RATE_LIMIT_TRANSFER: '0' });
    assert.deepEqual(optionsFromConfig(cfg, undefined).rateLimits, {
      transfer: 0,
      status: 7800,
      authorize: 3000,
      other: 3000,
    });
    assert.equal(optionsFromConfig(cfg, undefined).rateWindowMs, 60_000, "the provider's minute");
    const [short] = loadConfig([sandboxConfig], { SANDBOX_RATE_WINDOW_MS: '5000' });
    assert.equal(optionsFromConfig(short, undefined).rateWindowMs, 5_000);
  });
  it('webhooks: unset URL sends none; a URL and version map onto the webhook option', () => {
    const [none] = loadConfig([sandboxConfig], {});
    assert.equal(optionsFromConfig(none, undefined).webhook, undefined);
    assert.equal(none.SANDBOX_WEBHOOK_VERSION, 'v2');
    assert.equal(none.SANDBOX_WEBHOOK_TIMEOUT_MS, 5_000);
    const [set] = loadConfig([sandboxConfig], {
      SANDBOX_WEBHOOK_URL: 'http://127.0.0.1:9999/hooks',
      SANDBOX_WEBHOOK_VERSION: 'v1',
    });
    assert.deepEqual(optionsFromConfig(set, undefined).webhook, {
      url: 'http://127.0.0.1:9999/hooks',
      version: 'v1',
    });
    assert.throws(() => loadConfig([sandboxConfig], { SANDBOX_WEBHOOK_VERSION: 'v3' }));
    assert.throws(() => loadConfig([sandboxConfig], { SANDBOX_WEBHOOK_URL: 'ftp://x' }));
  });
  it('SANDBOX_MERCHANTS adds merchants after the configured client, each with its webhook, balance and charge', () => {
    const [none] = loadConfig([sandboxConfig], {});
    assert.deepEqual(optionsFromConfig(none, undefined).merchants, []);
    const [cfg] = loadConfig([sandboxConfig], {
      SANDBOX_WEBHOOK_VERSION: 'v1',
      SANDBOX_MERCHANTS: JSON.stringify([
        { clientId: 'm2', clientSecret: 's2', webhookUrl: 'http://127.0.0.1:9/w/v2', webhookVersion: 'v2' },
        { clientId: 'm3', clientSecret: 's3', webhookUrl: 'http://127.0.0.1:9/w/v1', initialBalance: '5.00' },
        { clientId: 'm4', clientSecret: 's4', transferCharge: '3.00' },
      ]),
    });
    assert.deepEqual(optionsFromConfig(cfg, undefined).merchants, [
      {
        clientId: 'm2',
        clientSecret: 's2',
        webhook: { url: 'http://127.0.0.1:9/w/v2', version: 'v2' },
        initialBalance: undefined,
        transferCharge: undefined,
      },
      {
        clientId: 'm3',
        clientSecret: 's3',
        webhook: { url: 'http://127.0.0.1:9/w/v1', version: 'v1' },
        initialBalance: '5.00',
        transferCharge: undefined,
      },
      {
        clientId: 'm4',
        clientSecret: 's4',
        webhook: undefined,
        initialBalance: undefined,
        transferCharge: '3.00',
      },
    ]);
  });
  it('SANDBOX_MERCHANTS: a bad entry, a repeated client id or the first client again fails without printing secrets', () => {
    const failure = (value: string): string => {
      try {
        optionsFromConfig(loadConfig([sandboxConfig], { SANDBOX_MERCHANTS: value })[0], undefined);
      } catch (err) {
        return String(err instanceof Error ? err.message : err);
      }
      assert.fail(`accepted ${value}`);
    };
    const noId = failure('[{"clientSecret":"hunter2-secret"}]');
    assert.match(noId, /SANDBOX_MERCHANTS/);
    assert.match(noId, /clientId/);
    assert.doesNotMatch(noId, /hunter2/);
    const twice = failure(
      '[{"clientId":"a","clientSecret":"hunter2-x"},{"clientId":"a","clientSecret":"hunter2-y"}]',
    );
    assert.match(twice, /its own/);
    assert.doesNotMatch(twice, /hunter2/);
    assert.doesNotMatch(
      failure('[{"clientId":"a","clientSecret":"hunter2-z","webhookVersion":"v3"}]'),
      /hunter2/,
    );
    assert.match(failure('not json hunter2'), /JSON/);
    assert.match(
      failure('[{"clientId":"sandbox_client_id","clientSecret":"hunter2"}]'),
      /repeats SANDBOX_CLIENT_ID/,
    );
  });
});
