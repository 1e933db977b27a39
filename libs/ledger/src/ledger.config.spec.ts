import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { ConfigError, loadConfig } from '#config';
import { ledgerConfig } from './ledger.config.js';

const good = randomBytes(32).toString('base64');

function problemsOf(env: Record<string, string>): string {
  try {
    loadConfig([ledgerConfig], env);
  } catch (e) {
    assert.ok(e instanceof ConfigError);
    return e.message;
  }
  assert.fail('the configuration loaded');
}

describe('ledger config keys', () => {
  it('accepts previous keys of 32 bytes each, and none', () => {
    const other = randomBytes(32).toString('base64');
    assert.doesNotThrow(() =>
      loadConfig([ledgerConfig], { LEDGER_PREVIOUS_KEYS: `k0:${good}, k1:${other}` }),
    );
    assert.doesNotThrow(() => loadConfig([ledgerConfig], {}));
  });

  // A short previous key would boot and fail only when the first old row is read (or a retried
  // command's hash is checked): the boot must say so, naming the variable, never the key.
  for (const [what, key] of [
    ['16 bytes', randomBytes(16).toString('base64')],
    ['33 bytes', randomBytes(33).toString('base64')],
    // Buffer.from(_, 'base64') skips characters outside the alphabet: this one decodes to 32 bytes.
    ['not base64', `${good.slice(0, 20)}!${good.slice(20)}`],
  ] as const) {
    it(`refuses a previous key of ${what} at boot, naming the variable and the key id, never the key`, () => {
      const message = problemsOf({ LEDGER_PREVIOUS_KEYS: `k0:${good},k1:${key}` });
      assert.match(message, /LEDGER_PREVIOUS_KEYS/);
      assert.match(message, /k1/);
      assert.ok(!message.includes(key), 'the key is not in the message');
      assert.ok(!message.includes(good), 'nor is the good key');
    });
  }

  it('refuses an entry without a key id, and a key id listed twice', () => {
    assert.match(problemsOf({ LEDGER_PREVIOUS_KEYS: good }), /LEDGER_PREVIOUS_KEYS/);
    assert.match(problemsOf({ LEDGER_PREVIOUS_KEYS: `k0:${good},k0:${good}` }), /k0.*more than once/);
  });

  it('refuses a current key that is not strict base64 of 32 bytes', () => {
    const message = problemsOf({ LEDGER_ENCRYPTION_KEY: `${good.slice(0, 20)}!${good.slice(20)}` });
    assert.match(message, /LEDGER_ENCRYPTION_KEY=<redacted> is invalid/);
  });
});
