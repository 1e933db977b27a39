import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError, loadConfig } from '#config';
import { outboxConfig, outboxRelaySettings } from './outbox.config.js';

describe('outbox config', () => {
  it('has working defaults', () => {
    const [c] = loadConfig([outboxConfig], {});
    const s = outboxRelaySettings(c);
    assert.equal(s.batchSize, 500);
    assert.equal(s.pollIntervalMs, 1000);
    assert.equal(s.retentionHours, 0, 'published rows are deleted as they are published');
    assert.ok(s.maxMessageBytes < 1_048_588, "below the broker's default message.max.bytes");
  });

  it('refuses nonsense with one message naming each variable', () => {
    assert.throws(
      () => loadConfig([outboxConfig], { OUTBOX_BATCH_SIZE: '0', OUTBOX_RETENTION_HOURS: 'forever' }),
      (e: unknown) =>
        e instanceof ConfigError &&
        e.problems.length === 2 &&
        /OUTBOX_BATCH_SIZE/.test(e.message) &&
        /OUTBOX_RETENTION_HOURS/.test(e.message),
    );
  });
});
