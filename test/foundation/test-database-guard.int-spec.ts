import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { assertTestDatabase } from '#test-support';

describe('test database guard', () => {
  it('refuses a database whose name lacks "test"', () => {
    assert.throws(
      () => assertTestDatabase('postgres://postgres@127.0.0.1:5432/payouts'),
      /must contain "test"/,
    );
    assert.doesNotThrow(() => assertTestDatabase('postgres://postgres@127.0.0.1:5432/payouts_test_1'));
  });
});
