import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { OperationsError, OperationsErrorCode } from '../../operations.errors.js';
import { parseProposeSettlement } from './propose-settlement.command.js';

const invalidInput = (e: unknown) =>
  e instanceof OperationsError && e.code === OperationsErrorCode.InvalidInput;
const payout = { accountId: 'acc', transferId: 't1' };
const good = { outcome: 'SUCCESS', utr: 'UTR123456', note: ' paid, per bank statement ', version: 4 };

describe('parseProposeSettlement', () => {
  it('a SUCCESS with its UTR, the note trimmed', () =>
    assert.deepEqual(parseProposeSettlement(payout, good), {
      payout,
      outcome: 'SUCCESS',
      utr: 'UTR123456',
      note: 'paid, per bank statement',
      version: 4,
    }));

  it('a FAILED needs no UTR', () =>
    assert.equal(parseProposeSettlement(payout, { outcome: 'FAILED', note: 'n', version: 1 }).utr, null));

  it('masks an account number typed in the note', () => {
    const c = parseProposeSettlement(payout, { ...good, note: 'sent to 026291800001191' });
    assert.ok(!c.note.includes('026291800001191'), c.note);
  });

  for (const [name, body] of [
    ['no body', undefined],
    ['an array', [good]],
    ['an unknown outcome', { ...good, outcome: 'REVERSED' }],
    ['no version', { ...good, version: undefined }],
    ['a version as text', { ...good, version: '4' }],
    ['a fractional version', { ...good, version: 4.5 }],
    ['a SUCCESS without UTR', { ...good, utr: undefined }],
    ['a malformed UTR', { ...good, utr: 'UTR 12' }],
    ['a blank note', { ...good, note: '  ' }],
    ['a note too long', { ...good, note: 'x'.repeat(501) }],
  ] as const)
    it(`refuses ${name}`, () => assert.throws(() => parseProposeSettlement(payout, body), invalidInput));
});
