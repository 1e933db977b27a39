import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { isTransient } from './outcome-recorder.js';

const pgError = (code: string) => Object.assign(new Error('x'), { code });

describe('isTransient', () => {
  it('retries what says nothing about the rows: connections, restarts, conflicts', () => {
    for (const code of [
      '08006',
      '08003',
      '57P01',
      '57P03',
      '53300',
      '40P01',
      '40001',
      'ECONNRESET',
      'ECONNREFUSED',
    ]) {
      assert.equal(isTransient(pgError(code)), true, code);
    }
    assert.equal(isTransient(new Error('Connection terminated unexpectedly')), true);
    assert.equal(isTransient(new Error('timeout exceeded when trying to connect')), true);
  });

  it('does not retry a refused value: the group is split instead', () => {
    for (const code of ['23514', '23505', '22007', '22P02', '42703']) {
      assert.equal(isTransient(pgError(code)), false, code);
    }
    assert.equal(isTransient(new RangeError('Invalid time value')), false);
  });
});
