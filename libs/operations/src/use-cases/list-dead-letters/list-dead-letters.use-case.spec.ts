import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type pg from 'pg';
import { type DeadLetterListed, type DeadLetterRepository } from '#ledger';
import { strictFake } from '#test-support';
import { type DeadOutboxRows } from '../../dead-letters.js';
import { OperationsError, OperationsErrorCode } from '../../operations.errors.js';
import { ListDeadOutboxRows } from '../list-dead-outbox-rows/list-dead-outbox-rows.use-case.js';
import { parseDeadLetterPage } from '../shared/dead-letter-page.command.js';
import { ListDeadLetters } from './list-dead-letters.use-case.js';

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

function listing(list: DeadLetterRepository['list']): ListDeadLetters {
  return new ListDeadLetters({
    pool: strictFake<pg.Pool>('pool'),
    deadLetters: strictFake<DeadLetterRepository>('deadLetters', { list }),
  });
}

const page = (cursor: string | undefined, limit: number) =>
  parseDeadLetterPage({ cursor, limit: String(limit) });

describe('ListDeadLetters', () => {
  it('asks for one row more than the page, and gives the last shown id as the next cursor', async () => {
    const asked: Array<{ beforeId: string | undefined; limit: number }> = [];
    const l = listing(async (_db, p) => {
      asked.push(p);
      return letters(p.limit, p.beforeId ? Number(p.beforeId) - 1 : 10);
    });
    const first = await l.execute(page(undefined, 3));
    assert.deepEqual(
      first.items.map((i) => i.id),
      ['10', '9', '8'],
    );
    assert.equal(first.nextCursor, '8');
    assert.equal(first.items[0]?.type, 'payout.direct_transfer');
    assert.equal(first.items[0]?.detail, 'data.amount: must match pattern');
    await l.execute(page('8', 3));
    assert.deepEqual(asked, [
      { beforeId: undefined, limit: 4 },
      { beforeId: '8', limit: 4 },
    ]);
  });

  it('the last page has no next cursor', async () => {
    const l = listing(async () => letters(2));
    assert.equal((await l.execute(page(undefined, 3))).nextCursor, null);
  });
});

describe('ListDeadOutboxRows', () => {
  it('dead outbox rows: the error is scrubbed and cut, the payload is never read', async () => {
    const dead: DeadOutboxRows = async () => [
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
    ];
    const shown = await new ListDeadOutboxRows({ deadOutboxRows: dead }).execute(page(undefined, 10));
    const err = shown.items[0]?.lastError ?? '';
    assert.ok(!err.includes('026291800001191'));
    assert.ok(!err.includes('someone@upi'));
    assert.ok(err.length <= 500);
    assert.equal(shown.items[0]?.createdAt, at.toISOString());
    assert.ok(!('payload' in (shown.items[0] ?? {})));
  });
});

describe('parseDeadLetterPage', () => {
  it('50 from the newest by default', () =>
    assert.deepEqual(parseDeadLetterPage({}), { beforeId: undefined, limit: 50 }));

  it('an empty cursor is the first page', () =>
    assert.deepEqual(parseDeadLetterPage({ cursor: '', limit: '200' }), { beforeId: undefined, limit: 200 }));

  for (const [cursor, limit] of [
    [undefined, '0'],
    [undefined, '201'],
    [undefined, '1.5'],
    [undefined, 'NaN'],
    [undefined, ''],
    ['abc', '10'],
    ['-1', '10'],
    ['0', '10'],
    ['1e3', '10'],
    ['1234567890123456789', '10'],
  ] as const)
    it(`refuses cursor ${String(cursor)} with limit ${JSON.stringify(limit)}`, () =>
      assert.throws(
        () => parseDeadLetterPage({ cursor, limit }),
        (e) => e instanceof OperationsError && e.code === OperationsErrorCode.InvalidInput,
      ));
});
