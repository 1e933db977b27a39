import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { historyItem, historyStatus } from './ledger-bene-history.js';

describe('beneficiary history from the ledger', () => {
  it('in-flight ledger states read as PENDING; outcomes as they are', () => {
    for (const s of ['RECEIVED', 'SUBMITTING', 'PENDING', 'UNKNOWN', 'REQUIRES_ATTENTION'])
      assert.equal(historyStatus(s), 'PENDING', s);
    for (const s of ['SUCCESS', 'FAILED', 'REVERSED', 'REJECTED']) assert.equal(historyStatus(s), s);
  });
  it('an item has the v1 shape: ISO date with milliseconds, exact amount text', () => {
    const item = historyItem('B1', {
      transferId: 't1',
      createdAt: new Date('2026-11-20T10:00:00.5Z'),
      amount: '100.50',
      mode: 'IMPS',
      status: 'UNKNOWN',
    });
    assert.deepEqual(item, {
      transferDate: '2026-11-20T10:00:00.500Z',
      amount: '100.50',
      mode: 'IMPS',
      beneId: 'B1',
      status: 'PENDING',
    });
  });
});
