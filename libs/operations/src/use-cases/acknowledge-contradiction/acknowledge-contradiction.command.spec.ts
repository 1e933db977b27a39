import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { OperationsError, OperationsErrorCode } from '../../operations.errors.js';
import { parseAcknowledgeContradiction } from './acknowledge-contradiction.command.js';

const invalidInput = (e: unknown) =>
  e instanceof OperationsError && e.code === OperationsErrorCode.InvalidInput;

describe('parseAcknowledgeContradiction', () => {
  it('no note is none', () => {
    assert.deepEqual(parseAcknowledgeContradiction('3', undefined), { id: '3', note: null });
    assert.deepEqual(parseAcknowledgeContradiction('3', {}), { id: '3', note: null });
  });

  it('a note has its digit runs masked', () => {
    const c = parseAcknowledgeContradiction('3', { note: 'refund to 026291800001191 agreed' });
    assert.ok(c.note !== null && !c.note.includes('026291800001191'), c.note ?? '');
  });

  for (const note of [null, 5, 'x'.repeat(501)])
    it(`refuses note ${JSON.stringify(note).slice(0, 20)}`, () =>
      assert.throws(() => parseAcknowledgeContradiction('3', { note }), invalidInput));
});
