import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { OperationsError, OperationsErrorCode } from './operations.errors.js';
import { csvCell, decodeCursor, encodeCursor, parseSearch } from './search.js';
import { likePrefix } from './search.repository.js';

describe('CSV cells', () => {
  for (const [input, out] of [
    ['plain', '"plain"'],
    ['=HYPERLINK("http://x")', `"'=HYPERLINK(""http://x"")"`],
    ['+1+1', `"'+1+1"`],
    ['-2', `"'-2"`],
    ['@SUM(A1)', `"'@SUM(A1)"`],
    ['\tx', `"'\tx"`],
    ['\rx', `"'\rx"`],
    ['a,b\nc', '"a,b\nc"'],
    [null, ''],
    [3, '"3"'],
  ] as const)
    it(`${JSON.stringify(input)} -> ${out}`, () => assert.equal(csvCell(input), out));
});

describe('search input', () => {
  const refused = (q: Readonly<Record<string, string | undefined>>) =>
    assert.throws(
      () => parseSearch(q),
      (e) => e instanceof OperationsError && e.code === OperationsErrorCode.InvalidInput,
    );

  it('takes every filter', () => {
    const s = parseSearch({
      status: 'PENDING,SUCCESS',
      kind: 'direct_transfer',
      account: 'default',
      from: '2026-01-01',
      to: '2026-02-01T00:00:00Z',
      utr: 'UTR123456',
      transferIdPrefix: 'tr_',
      limit: '10',
    });
    assert.deepEqual(s.filter.statuses, ['PENDING', 'SUCCESS']);
    assert.equal(s.limit, 10);
    assert.equal(s.filter.transferIdPrefix, 'tr_');
  });

  for (const q of [
    { status: 'PAID' },
    { kind: 'loan' },
    { from: 'yesterday' },
    { from: '2026-02-01', to: '2026-01-01' },
    { limit: '0' },
    { limit: '501' },
    { cursor: 'not-a-cursor' },
    { account: 'has space' },
    { cursor: encodeCursor({ batchId: '1', position: 2 }) },
    { batch: 'b1', cursor: encodeCursor({ createdAt: '2026-01-01 00:00:00.123456+00', id: '5' }) },
    { cursor: encodeCursor({ id: '5' }) },
    { cursor: encodeCursor({ createdAt: "2026-01-01'; DROP TABLE payout; --", id: '5' }) },
  ])
    it(`refuses ${JSON.stringify(q)}`, () => refused(q));

  it('cursors round-trip', () => {
    assert.deepEqual(decodeCursor(encodeCursor({ id: '12' })), { id: '12' });
    const at = { createdAt: '2026-11-24 00:45:22.123456+00', id: '7' };
    assert.deepEqual(decodeCursor(encodeCursor(at)), at);
    assert.deepEqual(decodeCursor(encodeCursor({ batchId: '3', position: 4 })), {
      batchId: '3',
      position: 4,
    });
  });

  it('a transferId prefix is literal: LIKE wildcards are escaped', () => {
    assert.equal(likePrefix('a_b%c\\'), 'a\\_b\\%c\\\\%');
  });
});
