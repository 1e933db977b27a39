import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError, loadConfig } from '#config';
import { outboxConfig, walRelaySettings } from './outbox.config.js';
import { bigIntToLsn, decodeWalMessage, encodeWalMessage, lsnToBigInt } from './wal-message.js';

describe('WAL outbox messages (ADR 0023)', () => {
  it('carry what the relay needs, and the payload as the very JSON text written', () => {
    const payload = { id: 'k:1', data: { note: 'two\nlines', amount: '10.00', name: 'Zoë' } };
    const content = encodeWalMessage({
      messageKey: 'payout/a/k',
      eventId: 'payout/a/k:1',
      eventType: 'payouts.payout.status',
      topic: 'payouts.events',
      payload,
      headers: { traceparent: '00-abc-def-01' },
    });
    const e = decodeWalMessage(new Uint8Array(Buffer.from(content)), '0/16B3748');
    assert.deepEqual(e, {
      messageKey: 'payout/a/k',
      eventId: 'payout/a/k:1',
      eventType: 'payouts.payout.status',
      topic: 'payouts.events',
      headers: { traceparent: '00-abc-def-01' },
      payload: JSON.stringify(payload),
      lsn: '0/16B3748',
    });
  });

  it('refuses a message without an envelope line, or with an incomplete one', () => {
    assert.throws(() => decodeWalMessage(new Uint8Array(Buffer.from('{"k":"x"}')), '0/1'), /no envelope/);
    assert.throws(
      () => decodeWalMessage(new Uint8Array(Buffer.from('{"k":"x"}\n{}')), '0/1'),
      /invalid envelope/,
    );
  });

  it('LSNs convert both ways and compare as numbers', () => {
    assert.equal(lsnToBigInt('16/B374D848'), (0x16n << 32n) | 0xb374d848n);
    assert.equal(bigIntToLsn(lsnToBigInt('16/B374D848')), '16/B374D848');
    assert.ok(lsnToBigInt('1/0') > lsnToBigInt('0/FFFFFFFF'));
  });

  it('config: table by default; a slot name must be a slot name', () => {
    const [c] = loadConfig([outboxConfig], {});
    assert.equal(c.OUTBOX_TRANSPORT, 'table');
    assert.equal(walRelaySettings(c).slot, 'payouts_outbox');
    assert.throws(() => loadConfig([outboxConfig], { OUTBOX_TRANSPORT: 'kafka' }), ConfigError);
    assert.throws(() => loadConfig([outboxConfig], { OUTBOX_WAL_SLOT: 'Bad-Name' }), ConfigError);
  });
});
