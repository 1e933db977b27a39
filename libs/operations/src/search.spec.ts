import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { csvCell, decodeCursor, encodeCursor } from './search.js';
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

describe('search cursors', () => {
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
