import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError } from '#config';
import { loadServiceConfig } from './service.config.js';

// FUNDS_HOLD is refused at start (exit 78, like every configuration problem), not at the first
// claim: an account that is not configured, or holding with the balance reader off.
describe('FUNDS_HOLD at start', () => {
  it('accepts an account that is configured, with the reader on', () => {
    const c = loadServiceConfig({ FUNDS_HOLD: '[{"accountId":"default","threshold":"10.00"}]' });
    assert.equal(c.pipeline.FUNDS_HOLD.length, 1);
  });

  it('refuses an account not in PROVIDER_ACCOUNTS, naming it', () => {
    assert.throws(
      () => loadServiceConfig({ FUNDS_HOLD: '[{"accountId":"acc_typo"}]' }),
      (e: unknown) => e instanceof ConfigError && /acc_typo/.test(e.message),
    );
  });

  it('refuses holding with the balance reader off', () => {
    assert.throws(
      () => loadServiceConfig({ FUNDS_HOLD: '[{"accountId":"default"}]', BALANCE_READ_INTERVAL_MS: '0' }),
      (e: unknown) => e instanceof ConfigError && /BALANCE_READ_INTERVAL_MS/.test(e.message),
    );
  });
});
