import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { OperationsError, OperationsErrorCode } from '../../operations.errors.js';
import { parseListRequiringAttention } from './list-requiring-attention.command.js';

const invalidInput = (e: unknown) =>
  e instanceof OperationsError && e.code === OperationsErrorCode.InvalidInput;

describe('parseListRequiringAttention', () => {
  it('defaults to 100 of each list', () => assert.deepEqual(parseListRequiringAttention({}), { limit: 100 }));

  it('takes 1 to 500', () => {
    assert.deepEqual(parseListRequiringAttention({ limit: '1' }), { limit: 1 });
    assert.deepEqual(parseListRequiringAttention({ limit: '500' }), { limit: 500 });
  });

  for (const limit of ['0', '-1', '501', '1.5', 'NaN', 'ten', ''])
    it(`rejects limit ${JSON.stringify(limit)}`, () =>
      assert.throws(() => parseListRequiringAttention({ limit }), invalidInput));
});
