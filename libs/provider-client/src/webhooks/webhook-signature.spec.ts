import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { v1Fields, v1SignatureValid, v2SignatureValid } from './webhook-signature.js';

const SECRET = 'sekret';

describe('webhook signatures', () => {
  it('v1: sorted field values, concatenated, HMAC-SHA256 base64; any change breaks it', () => {
    const fields: Record<string, string> = {
      event: 'TRANSFER_SUCCESS',
      transferId: 't1',
      referenceId: '42',
      utr: 'U1',
      acknowledged: '0',
      eventTime: '2026-11-24T00:00:00Z',
      reason: '',
    };
    const text = Object.keys(fields)
      .sort()
      .map((k) => fields[k])
      .join('');
    const signature = createHmac('sha256', SECRET).update(text).digest('base64');
    const body = Buffer.from(new URLSearchParams({ ...fields, signature }).toString());
    const parsed = v1Fields(body);
    assert.ok(parsed);
    assert.equal(v1SignatureValid(parsed, SECRET), true);
    assert.equal(v1SignatureValid(parsed, 'other'), false);
    parsed.set('utr', 'U2');
    assert.equal(v1SignatureValid(parsed, SECRET), false);
    parsed.set('utr', 'U1');
    parsed.set('extra', 'x');
    assert.equal(v1SignatureValid(parsed, SECRET), false, 'an added field is signed too');
    parsed.delete('extra');
    parsed.delete('signature');
    assert.equal(v1SignatureValid(parsed, SECRET), false, 'no signature, no webhook');
  });

  it('v1: a repeated field is refused', () => {
    assert.equal(v1Fields(Buffer.from('event=A&event=B')), undefined);
  });

  it('v2: timestamp + raw body; a changed byte, timestamp or secret breaks it', () => {
    const body = Buffer.from('{"type":"TRANSFER_SUCCESS","data":{"transferId":"t1"}}');
    const ts = '1764000000000';
    const sig = createHmac('sha256', SECRET)
      .update(ts + body.toString())
      .digest('base64');
    assert.equal(v2SignatureValid(ts, body, sig, SECRET), true);
    assert.equal(v2SignatureValid('1764000000001', body, sig, SECRET), false);
    assert.equal(v2SignatureValid(ts, Buffer.from(body.toString().replace('t1', 't2')), sig, SECRET), false);
    assert.equal(v2SignatureValid(ts, body, sig, 'other'), false);
    assert.equal(v2SignatureValid(ts, body, 'bm90IGEgbWFj', SECRET), false, 'a short MAC');
    assert.equal(v2SignatureValid(ts, body, '', SECRET), false);
  });
});
