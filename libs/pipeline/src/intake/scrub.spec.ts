import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { decodeCommand } from '#contracts';
import { scrubForDeadLetter } from './scrub.js';

const scrub = (s: string) => scrubForDeadLetter(Buffer.from(s)).bytes.toString();

describe('scrubForDeadLetter', () => {
  it('redacts secrets in parsed JSON and keeps clean bytes as they are', () => {
    assert.equal(scrub('{"cardToken":"4718610000000001","a":1}'), '{"cardToken":"[REDACTED]","a":1}');
    assert.deepEqual(scrubForDeadLetter(Buffer.from('{not json')), {
      bytes: Buffer.from('{not json'),
      scrubbed: false,
    });
  });

  it('redacts a secret cut short by truncation', () => {
    assert.equal(scrub('{"cryptogram":"AgAAAAAAAIR8'), '{"cryptogram":"[REDACTED]');
  });

  it('redacts a bare (unquoted) secret in text that is not JSON, whatever the key case', () => {
    assert.equal(scrub('{"cryptogram":AgAAAAAAAIR8CQ=,"x":1'), '{"cryptogram":"[REDACTED]","x":1');
    assert.equal(scrub('{"CRYPTOGRAM": AgAAAAAAAIR8CQ= }'), '{"CRYPTOGRAM": "[REDACTED]" }');
  });

  it('masks long digit runs in text that is not JSON', () => {
    assert.equal(scrub('{"bankAccount":"026291800001191"'), '{"bankAccount":"XXXXXXXXXXX1191"');
  });
});

describe('decodeCommand detail of malformed JSON', () => {
  it('does not quote the message text', () => {
    const r = decodeCommand(
      Buffer.from('{"type":"payout.card_payout","data":{"cryptogram":AgAAAAAAAIR8CQ}}'),
    );
    assert.equal(r.ok, false);
    assert.ok(!r.ok && r.reason === 'malformed_json');
    assert.ok(!r.ok && !r.detail.includes('AgAAA'), !r.ok ? r.detail : '');
  });
});
