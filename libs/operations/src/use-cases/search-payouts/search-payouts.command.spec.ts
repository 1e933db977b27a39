import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { OperationsError, OperationsErrorCode } from '../../operations.errors.js';
import { encodeCursor } from '../../search.js';
import { parseExportPayouts } from '../export-payouts/export-payouts.command.js';
import { parseSearchPayouts } from './search-payouts.command.js';

describe('parseSearchPayouts', () => {
  const refused = (q: Readonly<Record<string, string | undefined>>) =>
    assert.throws(
      () => parseSearchPayouts(q),
      (e) => e instanceof OperationsError && e.code === OperationsErrorCode.InvalidInput,
    );

  it('takes every filter', () => {
    const s = parseSearchPayouts({
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

  it('defaults to 50 a page, and takes an empty limit as the default', () => {
    assert.equal(parseSearchPayouts({}).limit, 50);
    assert.equal(parseSearchPayouts({ limit: '' }).limit, 50);
  });

  it('refuses a parameter given twice', () => refused({ status: ['PENDING', 'FAILED'] } as never));
});

describe('parseExportPayouts', () => {
  it('reads 500 rows a page whatever limit is given, with the same filter', () => {
    const s = parseExportPayouts({ limit: '3', status: 'FAILED' });
    assert.equal(s.limit, 500);
    assert.deepEqual(s.filter.statuses, ['FAILED']);
  });

  it('refuses a bad filter before any row is read', () =>
    assert.throws(
      () => parseExportPayouts({ kind: 'loan' }),
      (e) => e instanceof OperationsError && e.code === OperationsErrorCode.InvalidInput,
    ));
});
