import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import type pg from 'pg';
import { createLogger } from '#observability';
import { payoutRow, strictFake } from '#test-support';
import { type OutboxMessage } from './events.js';
import { type HistoryEntry, type HistoryRepository } from './history.repository.js';
import { type PayoutRow } from './ledger.types.js';
import { type ChangeSource } from './ledger.ports.js';
import { PayoutLedger } from './payout-ledger.js';
import { type PayoutRepository, type TransitionMove } from './payout.repository.js';
import { IllegalTransitionError } from './state-machine.js';

const strict = strictFake;
const row = (over: Partial<PayoutRow> = {}): PayoutRow =>
  payoutRow({
    id: '7',
    accountId: 'acc',
    transferId: 't7',
    status: 'SUBMITTING',
    version: 2,
    checkCount: 0,
    requestId: 'req',
    ...over,
  });

function harness(answer: (moves: readonly TransitionMove[]) => PayoutRow[]) {
  const statements: string[] = [];
  const history: HistoryEntry[] = [];
  const moves: TransitionMove[] = [];
  const events: OutboxMessage[] = [];
  const stale: ChangeSource[] = [];
  type Line = { msg: string; level: string; component?: string; to?: string };
  const lines: Line[] = [];
  const client = strict<pg.PoolClient>('client', {
    query: (sql: string) => {
      statements.push(sql);
      return Promise.resolve({ rows: [] });
    },
    on: () => client,
    off: () => client,
    release: () => undefined,
  });
  const pool = strict<pg.Pool>('pool', { connect: () => Promise.resolve(client) });
  const payouts = strict<PayoutRepository>('payouts', {
    // The repository's statement writes the history of the moves it made (cause, from, actor).
    transitionMany: (_c: unknown, m: readonly TransitionMove[], cause: HistoryEntry['cause']) => {
      moves.push(...m);
      statements.push('transition');
      const moved = answer(m);
      for (const r of moved) {
        const move = m.find((x) => x.id === r.id);
        history.push({
          subject: 'payout',
          subjectId: r.id,
          accountId: r.accountId,
          transferId: r.transferId,
          from: move?.fromStatus ?? null,
          to: r.status,
          version: r.version,
          cause,
          ...(move?.actor ? { actor: move.actor } : {}),
        });
      }
      return Promise.resolve(moved);
    },
  });
  const logger = createLogger({
    level: 'info',
    name: 'spec',
    destination: new Writable({
      write: (chunk: Buffer, _e, cb) => {
        for (const l of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(l) as Line);
        cb();
      },
    }),
  });
  const ledger = new PayoutLedger({
    pool,
    payouts,
    outbox: {
      enqueue: (_c, rows) => {
        events.push(...rows);
        statements.push('enqueue');
        return Promise.resolve();
      },
    },
    // Only the rarer moves (re-send, reopen) write their history through the history repository.
    history: strict<HistoryRepository>('history', {}),
    logger,
    stale: (s) => stale.push(s),
  });
  return { ledger, statements, moves, events, stale, lines, history };
}

describe('PayoutLedger', () => {
  it('moves, writes the event and commits in one transaction, then logs the change', async () => {
    const h = harness((m) => m.map((x) => row({ status: x.to, version: x.fromVersion + 1 })));
    const moved = await h.ledger.change({ row: row(), to: 'SUCCESS', fields: { utr: 'U1' } }, 'executor');
    assert.equal(moved?.status, 'SUCCESS');
    assert.deepEqual(h.statements, ['BEGIN', 'transition', 'enqueue', 'COMMIT']);
    assert.deepEqual(
      h.history.map((x) => [x.subject, x.from, x.to, x.version, x.cause, x.actor]),
      [['payout', 'SUBMITTING', 'SUCCESS', 3, 'executor', undefined]],
    );
    assert.deepEqual(h.moves, [
      {
        id: '7',
        fromVersion: 2,
        fromStatus: 'SUBMITTING',
        to: 'SUCCESS',
        fields: { utr: 'U1' },
        eraseSecrets: true,
      },
    ]);
    assert.deepEqual(
      h.events.map((e) => e.eventId),
      ['payout/acc/t7:3'],
    );
    const line = h.lines.find((l) => l.msg === 'payout state changed');
    assert.equal(line?.component, 'executor');
    assert.equal(line?.to, 'SUCCESS');
    assert.deepEqual(h.stale, []);
  });

  it('keeps secrets while the payout is not final', async () => {
    const h = harness((m) => m.map((x) => row({ status: x.to, version: x.fromVersion + 1 })));
    await h.ledger.change({ row: row(), to: 'UNKNOWN' }, 'executor');
    assert.equal(h.moves[0]?.eraseSecrets, false);
  });

  it('refuses a move the state machine does not allow, and writes nothing', async () => {
    const h = harness(() => assert.fail('nothing may be written'));
    await assert.rejects(
      h.ledger.change({ row: row({ status: 'FAILED' }), to: 'SUCCESS' }, 'reconciler'),
      IllegalTransitionError,
    );
    await assert.rejects(
      h.ledger.changeMany(
        [
          { row: row({ id: '1', status: 'SUBMITTING' }), to: 'SUCCESS' },
          { row: row({ id: '2', status: 'RECEIVED' }), to: 'PENDING' },
        ],
        'executor',
      ),
      IllegalTransitionError,
    );
    assert.deepEqual(h.moves, []);
    assert.deepEqual(h.events, []);
    assert.deepEqual(h.statements, ['BEGIN', 'ROLLBACK', 'BEGIN', 'ROLLBACK']);
  });

  it('counts a change whose row moved on meanwhile as stale, and logs no state change', async () => {
    const h = harness(() => []);
    const moved = await h.ledger.change({ row: row({ status: 'PENDING' }), to: 'SUCCESS' }, 'reconciler');
    assert.equal(moved, undefined);
    assert.deepEqual(h.stale, ['reconciler']);
    assert.equal(
      h.lines.some((l) => l.msg === 'payout state changed'),
      false,
    );
  });

  it('answers a group change by change, in the order asked', async () => {
    const h = harness((m) => [row({ id: m[1]!.id, status: m[1]!.to, version: 3 })]);
    const moved = await h.ledger.changeMany(
      [
        { row: row({ id: '1' }), to: 'SUCCESS' },
        { row: row({ id: '2' }), to: 'PENDING' },
      ],
      'executor',
    );
    assert.deepEqual(
      moved.map((r) => r?.status),
      [undefined, 'PENDING'],
    );
    assert.deepEqual(h.stale, ['executor']);
  });

  it('logs REQUIRES_ATTENTION as an error line', async () => {
    const h = harness((m) => m.map((x) => row({ status: x.to, version: x.fromVersion + 1 })));
    await h.ledger.change({ row: row({ status: 'UNKNOWN' }), to: 'REQUIRES_ATTENTION' }, 'reconciler');
    const line = h.lines.find((l) => l.msg.startsWith('payout requires attention'));
    assert.equal(line?.level, 'error');
  });
});
