import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { amountAtLeast, isAmount, JsonDecimal, toMinorUnits, writeJson } from './decimal.js';

describe('decimal amounts', () => {
  it('accepts at most two places and no exponents or signs', () => {
    for (const ok of ['1', '1.0', '1.00', '0.01', '12345678901.23']) assert.ok(isAmount(ok), ok);
    for (const bad of ['1.001', '-1', '1e3', '.5', '1.', ' 1', 'NaN', '']) assert.ok(!isAmount(bad), bad);
  });

  it('compares exactly', () => {
    assert.ok(amountAtLeast('1.00', '1'));
    assert.ok(!amountAtLeast('0.99', '1.00'));
    assert.equal(toMinorUnits('9007199254740993.01'), 900719925474099301n);
  });

  it('writes the decimal literal into JSON unchanged, and the result parses', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 13n - 1n }),
        fc.constantFrom('', '.5', '.50', '.05'),
        (w, f) => {
          const lit = `${w}${f}`;
          const text = writeJson({
            amount: new JsonDecimal(lit),
            s: 'x',
            n: undefined,
            list: [1, null, true],
          });
          assert.equal(text, `{"amount":${lit},"s":"x","list":[1,null,true]}`);
          assert.doesNotThrow(() => JSON.parse(text) as unknown);
        },
      ),
    );
  });

  it('refuses a JsonDecimal that is not a decimal', () => {
    assert.throws(() => new JsonDecimal('1e9'));
  });
});
