import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type pg from 'pg';
import { type DeadLetterListed, type DeadLetterRepository } from '#ledger';
import { strictFake } from '#test-support';
import { DeadLetterListing, type DeadOutboxRows } from './dead-letters.js';
import { OperationsError, OperationsErrorCode } from './operations.errors.js';

const at = new Date('2026-11-24T00:00:00Z');

function letters(n: number, from = n): DeadLetterListed[] {
  return Array.from({ length: n }, (_, i) => ({
    id: String(from - i),
    topic: 'payouts.commands',
    partition: 0,
    offset: String(from - i),
    reason: 'schema_violation',
    detail: { detail: 'data.amount: must match pattern', type: 'payout.direct_transfer' },
    createdAt: at,
  }));
}

function listing(over: { list?: DeadLetterRepository['list']; dead?: DeadOutboxRows } = {}) {
  return new DeadLetterListing({
    pool: strictFake<pg.Pool>('pool'),
    deadLetters: strictFake<DeadLetterRepository>('deadLetters', over.list ? { list: over.list } : {}),
    deadOutboxRows: over.dead ?? (() => Promise.reject(new Error('unexpected'))),
  });
}

const codeOf = async (p: Promise<unknown>) => {
  try {
    await p;
  } catch (e) {
    if (e instanceof OperationsError) return e.code;
    throw e;
  }
  throw new Error('expected a refusal');
};

describe('DeadLetterListing', () => {
  it('asks for one row more than the page, and gives the last shown id as the next cursor', async () => {
    const asked: Array<{ beforeId: string | undefined; limit: number }> = [];
    const l = listing({
      list: async (_db, page) => {
        asked.push(page);
        return letters(page.limit, page.beforeId ? Number(page.beforeId) - 1 : 10);
      },
    });
    const first = await l.commands(undefined, 3);
    assert.deepEqual(
      first.items.map((i) => i.id),
      ['10', '9', '8'],
    );
    assert.equal(first.nextCursor, '8');
    assert.equal(first.items[0]?.type, 'payout.direct_transfer');
    assert.equal(first.items[0]?.detail, 'data.amount: must match pattern');
    await l.commands('8', 3);
    assert.deepEqual(asked, [
      { beforeId: undefined, limit: 4 },
      { beforeId: '8', limit: 4 },
    ]);
  });

  it('the last page has no next cursor', async () => {
    const l = listing({ list: async () => letters(2) });
    assert.equal((await l.commands(undefined, 3)).nextCursor, null);
  });

  for (const [cursor, limit] of [
    [undefined, 0],
    [undefined, 201],
    [undefined, 1.5],
    [undefined, Number.NaN],
    ['abc', 10],
    ['-1', 10],
    ['0', 10],
    ['1e3', 10],
    ['1234567890123456789', 10],
  ] as const) {
    it(`refuses cursor ${String(cursor)} with limit ${limit}`, async () => {
      assert.equal(await codeOf(listing().commands(cursor, limit)), OperationsErrorCode.InvalidInput);
      assert.equal(await codeOf(listing().outboxRows(cursor, limit)), OperationsErrorCode.InvalidInput);
    });
  }

  it('dead outbox rows: the error is scrubbed and cut, the payload is never read', async () => {
    const l = listing({
      dead: async () => [
        {
          id: '7',
          eventId: 'payout/default/t1:3',
          eventType: 'payouts.payout.succeeded',
          messageKey: 'payout/default/t1',
          topic: 'payouts.events',
          attempts: 15,
          lastError: `refused for 026291800001191 and someone@upi ${'x'.repeat(1_000)}`,
          createdAt: at,
        },
      ],
    });
    const page = await l.outboxRows(undefined, 10);
    const err = page.items[0]?.lastError ?? '';
    assert.ok(!err.includes('026291800001191'));
    assert.ok(!err.includes('someone@upi'));
    assert.ok(err.length <= 500);
    assert.equal(page.items[0]?.createdAt, at.toISOString());
    assert.ok(!('payload' in (page.items[0] ?? {})));
  });
});
