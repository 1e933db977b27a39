import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { webhookOutcome } from './webhook-outcome.js';

// A webhook that settles a payout passes on the transfer's fee when it carries it (issue 32); the
// ledger writes it only with a move into SUCCESS or REVERSED (test/ledger/transfer-fees.int-spec.ts).
describe('what a settling webhook writes onto the payout', () => {
  const fields = { utr: 'U1', svcTransferId: '987', feeCharge: '3.00', feeTax: '0.54' };

  it('the fee it carries is passed on', () => {
    assert.deepEqual(webhookOutcome(fields, 'COMPLETED', 'SUCCESS').fee, { charge: '3.00', tax: '0.54' });
    assert.deepEqual(webhookOutcome(fields, undefined, 'REVERSED').fee, { charge: '3.00', tax: '0.54' });
    assert.deepEqual(webhookOutcome({ feeCharge: '0.00' }, undefined, 'SUCCESS').fee, { charge: '0.00' });
  });

  it('a webhook without the fee gives none (the row keeps its own)', () => {
    assert.equal('fee' in webhookOutcome({ utr: 'U1' }, undefined, 'SUCCESS'), false);
  });

  it('the rest is as before: ids, the evidence as status code, nothing left to check', () => {
    const o = webhookOutcome(fields, undefined, 'SUCCESS');
    assert.equal(o.statusCode, 'SUCCESS');
    assert.equal(o.utr, 'U1');
    assert.equal(o.svcTransferId, '987');
    assert.equal(o.nextCheckAt, null);
  });
});
