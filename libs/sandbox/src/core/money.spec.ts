import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { formatPaise, parseAmount } from './money.js';

describe('money', () => {
  it('parses strings and numbers through decimal text', () => {
    assert.deepEqual(parseAmount('10.5'), { paise: 1050n, decimals: 1 });
    assert.deepEqual(parseAmount(10.1), { paise: 1010n, decimals: 1 });
    // A float artefact is not an amount anyone typed.
    assert.equal(parseAmount(0.1 + 0.2), undefined);
  });
  it('counts decimals beyond two and ignores trailing zeros', () => {
    assert.equal(parseAmount('1.005')?.decimals, 3);
    assert.equal(parseAmount('1.500')?.decimals, 1);
  });
  it('rejects non-amounts', () => {
    for (const v of ['', 'abc', '-1', '1e5', null, true, {}, -3, Number.NaN]) {
      assert.equal(parseAmount(v), undefined, JSON.stringify(v));
    }
  });
  it('formats paise with two decimals', () => {
    assert.equal(formatPaise(5n), '0.05');
    assert.equal(formatPaise(123456n), '1234.56');
    assert.equal(formatPaise(-150n), '-1.50');
  });
});
