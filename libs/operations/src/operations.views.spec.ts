import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { type PayoutRow } from '#ledger';
import { payoutRow } from '#test-support';
import { payoutView } from './operations.views.js';

function row(p: Partial<PayoutRow>): PayoutRow {
  return payoutRow({
    accountId: 'acc',
    request: {
      beneDetails: { name: 'N', bankAccount: '026291800001191', ifsc: 'YESB0000262', vpa: 'someone@upi' },
    },
    requestSecrets: {
      cardToken: { k: 'dev-1', iv: 'x', tag: 'y', data: 'z' },
    } as unknown as PayoutRow['requestSecrets'],
    lastError: { processed: true },
    amount: '150.00',
    status: 'PENDING',
    version: 3,
    referenceId: 'ref',
    requestId: 'req',
    checkCount: 2,
    ...p,
  });
}

describe('payoutView', () => {
  it('masks the beneficiary and leaves out the request, its secrets and last error', () => {
    const v = payoutView(row({}));
    assert.deepEqual(v.beneficiary, {
      bankAccount: 'XXXXXXXXXXX1191',
      ifsc: 'YESB0000262',
      vpa: 'so***@upi',
    });
    const text = JSON.stringify(v);
    for (const s of ['026291800001191', 'someone@upi', 'cardToken', 'processed', '"request"'])
      assert.ok(!text.includes(s), s);
    assert.equal(v.amount, '150.00');
  });

  it("shows the provider's fee of a settled payout, null when not known (issue 32)", () => {
    assert.deepEqual(payoutView(row({ status: 'SUCCESS', fee: { charge: '3.00', tax: '0.54' } })).fee, {
      charge: '3.00',
      tax: '0.54',
    });
    assert.equal(payoutView(row({})).fee, null);
  });
});
