import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { OperationsError, OperationsErrorCode } from '../../operations.errors.js';
import { encodeCursor } from '../../search.js';
import { parseListProposals } from './list-proposals.command.js';

const invalidInput = (e: unknown) =>
  e instanceof OperationsError && e.code === OperationsErrorCode.InvalidInput;

describe('parseListProposals', () => {
  it('every state, 50 a page, from the newest, by default', () =>
    assert.deepEqual(parseListProposals({}), { state: null, limit: 50, afterId: null }));

  it('"all" and an empty state are every state', () => {
    assert.equal(parseListProposals({ state: 'all' }).state, null);
    assert.equal(parseListProposals({ state: '' }).state, null);
  });

  it('takes a state, a limit and a cursor this API gave', () =>
    assert.deepEqual(parseListProposals({ state: 'stale', limit: '5', cursor: encodeCursor({ id: '12' }) }), {
      state: 'stale',
      limit: 5,
      afterId: '12',
    }));

  for (const q of [
    { state: 'pending' },
    { state: ['open', 'stale'] },
    { limit: '0' },
    { limit: '501' },
    { limit: 'x' },
    { cursor: 'junk' },
    { cursor: encodeCursor({ createdAt: '2026-01-01 00:00:00+00', id: '5' }) },
    { cursor: encodeCursor({ batchId: '1', position: 2 }) },
  ])
    it(`refuses ${JSON.stringify(q)}`, () => assert.throws(() => parseListProposals(q), invalidInput));
});
