import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { loadOrGenerateKeys, signClientId, verifySignature, type SignatureKeys } from './signature.js';

describe('X-Svc-Signature', () => {
  let keys: SignatureKeys;
  const now = 1_700_000_000_000;
  before(async () => {
    keys = await loadOrGenerateKeys(undefined);
  });
  it('accepts <client_id>.<seconds> within the window', () => {
    const sig = signClientId(keys.publicKeyPem, 'cid', now / 1000 - 299);
    assert.equal(verifySignature(keys, sig, 'cid', now, 300), true);
  });
  it('refuses stale, future, foreign and garbage values', () => {
    assert.equal(
      verifySignature(keys, signClientId(keys.publicKeyPem, 'cid', now / 1000 - 301), 'cid', now, 300),
      false,
    );
    assert.equal(
      verifySignature(keys, signClientId(keys.publicKeyPem, 'cid', now / 1000 + 301), 'cid', now, 300),
      false,
    );
    assert.equal(
      verifySignature(keys, signClientId(keys.publicKeyPem, 'other', now / 1000), 'cid', now, 300),
      false,
    );
    assert.equal(verifySignature(keys, 'Zm9v', 'cid', now, 300), false);
    assert.equal(verifySignature(keys, undefined, 'cid', now, 300), false);
  });
  it('loads a configured PEM private key', async () => {
    const pem = keys.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const again = await loadOrGenerateKeys(pem);
    assert.equal(again.publicKeyPem, keys.publicKeyPem);
  });
});
