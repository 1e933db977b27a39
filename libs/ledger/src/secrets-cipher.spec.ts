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

describe('SecretsCipher sealed values', () => {
  const cipher = new SecretsCipher('k1', k1);

  it('open what they seal, with a 16-byte tag', () => {
    const sealed = cipher.seal('tok_4111111111111111');
    assert.equal(Buffer.from(sealed.tag, 'base64').length, 16);
    assert.equal(cipher.open(sealed), 'tok_4111111111111111');
  });

  // GCM accepts tags of 4 to 16 bytes unless the length is pinned: a 4-byte tag is a 1 in 2^32
  // forgery, so a stored value must carry the full tag to open.
  for (const bytes of [4, 8, 12, 15]) {
    it(`refuse a value whose tag is cut to ${bytes} bytes`, () => {
      const sealed = cipher.seal('tok_4111111111111111');
      const cut = { ...sealed, tag: Buffer.from(sealed.tag, 'base64').subarray(0, bytes).toString('base64') };
      assert.throws(() => cipher.open(cut), /tag/, `a ${bytes}-byte tag must not open`);
    });
  }

  it('refuse a value whose tag or ciphertext was changed', () => {
    const sealed = cipher.seal('tok_4111111111111111');
    const tag = Buffer.from(sealed.tag, 'base64');
    tag[0] = (tag[0] as number) ^ 1;
    assert.throws(() => cipher.open({ ...sealed, tag: tag.toString('base64') }));
    const ct = Buffer.from(sealed.ct, 'base64');
    ct[0] = (ct[0] as number) ^ 1;
    assert.throws(() => cipher.open({ ...sealed, ct: ct.toString('base64') }));
  });
});

describe('SecretsCipher keys', () => {
  it('refuses a previous key that is not 32 bytes, naming its id and never the key', () => {
    const short = randomBytes(16).toString('base64');
    assert.throws(
      () => SecretsCipher.fromConfig('k2', k2.toString('base64'), `k1:${short}`),
      (e: Error) =>
        /LEDGER_PREVIOUS_KEYS/.test(e.message) && /k1/.test(e.message) && !e.message.includes(short),
    );
    assert.throws(() => new SecretsCipher('k2', k2, new Map([['k1', randomBytes(31)]])), /32 bytes/);
  });

  it("refuses a previous key under the current key's id (the current key would shadow it)", () => {
    assert.throws(
      () => SecretsCipher.fromConfig('k1', k2.toString('base64'), `k1:${k1.toString('base64')}`),
      /LEDGER_PREVIOUS_KEYS.*k1.*LEDGER_ENCRYPTION_KEY_ID/,
    );
  });
});
