import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { reaimV1 } from './hostile.js';
import { signV1, v1Fields } from './webhook.encode.js';

describe('reaimV1', () => {
  const secret = 'sandbox_client_secret';
  const captured = v1Fields({
    kind: 'transfer',
    type: 'TRANSFER_FAILED',
    at: Date.UTC(2026, 0, 2, 3, 4, 5),
    transferId: 'PO-1001',
    referenceId: '100042',
    utr: '',
    acknowledged: 0,
    reason: 'BENEFICIARY_BANK_OFFLINE',
    status: 'FAILED',
    amount: '10.00',
  });
  const signature = signV1(captured, secret);

  it('aims at the shortest known prefix; the signature of the captured webhook still verifies', () => {
    const known = new Set(['PO-100', 'PO-10']);
    const aimed = reaimV1({ ...captured, signature }, (id) => known.has(id));
    assert.ok(aimed);
    assert.equal(aimed.target, 'PO-100');
    assert.equal(aimed.known, true);
    assert.equal(aimed.fields.transferId, 'PO-100');
    assert.equal(aimed.fields.utr, '1');
    assert.equal(aimed.fields.referenceId, undefined);
    assert.equal(aimed.fields.refId, '100042');
    assert.equal(aimed.fields.signature, signature);
    assert.equal(signV1(aimed.fields, secret), signature);
  });

  it('cuts one character when no prefix is known, and more when only a shorter one is', () => {
    assert.equal(reaimV1(captured, () => false)?.target, 'PO-100');
    assert.equal(reaimV1(captured, () => false)?.known, false);
    const aimed = reaimV1(captured, (id) => id === 'PO-1');
    assert.deepEqual([aimed?.target, aimed?.fields.utr], ['PO-1', '001']);
    assert.equal(signV1(aimed?.fields ?? {}, secret), signature);
  });

  it('the signature check can fail: a changed value does not verify', () => {
    const aimed = reaimV1(captured, () => false);
    assert.notEqual(signV1({ ...aimed?.fields, reason: 'OTHER' }, secret), signature);
    assert.equal(
      reaimV1({ ...captured, transferId: 'P' }, () => true),
      undefined,
    );
  });
});
