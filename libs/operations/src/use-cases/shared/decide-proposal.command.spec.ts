import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { OperationsError, OperationsErrorCode } from '../../operations.errors.js';
import { parseDecideProposal } from './decide-proposal.command.js';

const invalidInput = (e: unknown) =>
  e instanceof OperationsError && e.code === OperationsErrorCode.InvalidInput;

describe('parseDecideProposal', () => {
  it('a note is optional: none, null, empty or no body', () => {
    for (const body of [undefined, null, {}, { note: null }, { note: '' }, 'text'])
      assert.deepEqual(parseDecideProposal('7', body), { proposalId: '7', note: null });
  });

  it('a note is trimmed and its digit runs masked', () => {
    const c = parseDecideProposal('7', { note: ' checked 026291800001191 ' });
    assert.ok(c.note?.startsWith('checked '), c.note ?? '');
    assert.ok(!c.note?.includes('026291800001191'));
  });

  it('the id is kept as given: an unknown one is the use case’s not found', () =>
    assert.equal(parseDecideProposal('abc', {}).proposalId, 'abc'));

  for (const note of [3, 'x'.repeat(501), ['a']])
    it(`refuses note ${JSON.stringify(note).slice(0, 20)}`, () =>
      assert.throws(() => parseDecideProposal('7', { note }), invalidInput));
});
