import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac, hkdfSync, randomBytes } from 'node:crypto';
import { SecretsCipher } from './secrets-cipher.js';

const k1 = randomBytes(32);
const k2 = randomBytes(32);
const request = '{"type":"payout.direct_transfer","accountId":"default","data":{"amount":"10.00"}}';

describe('SecretsCipher request hashes', () => {
  it('name their key, and still match after the key rotates (old key kept for decryption)', () => {
    const before = new SecretsCipher('k1', k1).hash(request);
    assert.match(before, /^k1:[0-9a-f]{64}$/);
    const rotated = new SecretsCipher('k2', k2, new Map([['k1', k1]]));
    assert.ok(rotated.sameRequest(before, request), 'a retry after the rotation is the same request');
    assert.ok(!rotated.sameRequest(before, request.replace('10.00', '11.00')), 'another request is not');
    assert.notEqual(rotated.hash(request), before, 'new hashes use the new key');
    assert.ok(rotated.sameRequest(rotated.hash(request), request));
  });

  it('a hash written before key ids were stored is checked with every key', () => {
    const hashKey = Buffer.from(hkdfSync('sha256', k1, Buffer.alloc(0), 'payouts request hash', 32));
    const legacy = createHmac('sha256', hashKey).update(request).digest('hex');
    assert.ok(new SecretsCipher('k2', k2, new Map([['k1', k1]])).sameRequest(legacy, request));
  });

  it('a hash whose key is gone cannot match: the first request stands (a conflict, never a second payout)', () => {
    const before = new SecretsCipher('k1', k1).hash(request);
    assert.ok(!new SecretsCipher('k2', k2).sameRequest(before, request));
  });
});
