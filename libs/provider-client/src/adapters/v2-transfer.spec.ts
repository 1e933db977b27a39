import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { providerTransferId } from './v2-transfer.js';

describe('providerTransferId', () => {
  it("reads the provider's wire name, cf_transfer_id", () => {
    assert.equal(providerTransferId({ cf_transfer_id: '98765' }), '98765');
  });
  it('falls back to the neutral svc_transfer_id, and prefers cf_transfer_id when both come', () => {
    assert.equal(providerTransferId({ svc_transfer_id: '1' }), '1');
    assert.equal(providerTransferId({ cf_transfer_id: '2', svc_transfer_id: '1' }), '2');
    assert.equal(providerTransferId({}), undefined);
  });
});
