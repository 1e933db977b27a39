import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { debitOf, feeOf, NO_FEE } from './fees.js';

describe('transfer fees', () => {
  it('charges 18 % GST on the service charge, rounded half up to the paisa', () => {
    assert.deepEqual(feeOf(300n), { charge: 300n, tax: 54n });
    assert.deepEqual(feeOf(1n), { charge: 1n, tax: 0n }); // 0.18 paisa
    assert.deepEqual(feeOf(3n), { charge: 3n, tax: 1n }); // 0.54 paisa
    assert.deepEqual(feeOf(25n), { charge: 25n, tax: 5n }); // 4.5 paise: half up
    assert.deepEqual(feeOf(0n), NO_FEE);
  });

  it('debits the amount, the charge and the tax', () => {
    assert.equal(debitOf({ amount: 10_000n, fee: feeOf(300n) }), 10_354n);
    assert.equal(debitOf({ amount: 10_000n }), 10_000n);
  });
});
