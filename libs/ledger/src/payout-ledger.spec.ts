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
import { type LedgerTransaction } from './ledger-transaction.js';
import { type PayoutMoves, type TransitionMove } from './payout-moves.repository.js';
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

function harness(answer: (moves: readonly TransitionMove[]) => PayoutRow[], failOn: readonly string[] = []) {
  const statements: string[] = [];
  const history: HistoryEntry[] = [];
  const moved: TransitionMove[] = [];
  const events: OutboxMessage[] = [];
  const stale: ChangeSource[] = [];
  const paid: Array<[string, bigint]> = [];
  // Each line with the statements sent when it was written: an announcement after the commit
  // sees COMMIT last.
  type Line = { msg: string; level: string; component?: string; to?: string; sent: string[] };
  const lines: Line[] = [];
  const client = strict<pg.PoolClient>('client', {
    query: (sql: string) => {
      statements.push(sql);
      return failOn.includes(sql)
        ? Promise.reject(new Error(`${sql} failed`))
        : Promise.resolve({ rows: [] });
    },
    on: () => client,
    off: () => client,
    release: () => undefined,
  });
  const pool = strict<pg.Pool>('pool', { connect: () => Promise.resolve(client) });
  const moves = strict<PayoutMoves>('moves', {
    // The repository's statement writes the history of the moves it made (cause, from, actor).
    transitionMany: (_c: unknown, m: readonly TransitionMove[], cause: HistoryEntry['cause']) => {
      moved.push(...m);
      statements.push('transition');
      const rows = answer(m);
      for (const r of rows) {
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
      return Promise.resolve(rows);
    },
  });
  const logger = createLogger({
    level: 'info',
    name: 'spec',
    destination: new Writable({
      write: (chunk: Buffer, _e, cb) => {
        for (const l of chunk.toString().split('\n').filter(Boolean))
          lines.push({ ...(JSON.parse(l) as Omit<Line, 'sent'>), sent: [...statements] });
        cb();
      },
    }),
  });
  const ledger = new PayoutLedger(
    {
      pool,
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
      paid: (account, paise) => paid.push([account, paise]),
    },
    moves,
  );
  return { ledger, statements, moves: moved, events, stale, lines, history, paid };
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

  it('counts the amount paid, in paise, once a payout enters SUCCESS and its transaction commits', async () => {
    const h = harness((m) =>
      m.map((x) => row({ status: x.to, version: x.fromVersion + 1, amount: '1234.56' })),
    );
    await h.ledger.change({ row: row(), to: 'UNKNOWN' }, 'executor');
    assert.deepEqual(h.paid, [], 'not paid yet');
    await h.ledger.change({ row: row({ status: 'UNKNOWN' }), to: 'SUCCESS' }, 'reconciler');
    assert.deepEqual(h.paid, [['acc', 123456n]]);
    const failing = harness(
      (m) => m.map((x) => row({ status: x.to, version: x.fromVersion + 1 })),
      ['COMMIT'],
    );
    await assert.rejects(failing.ledger.change({ row: row(), to: 'SUCCESS' }, 'executor'));
    assert.deepEqual(failing.paid, [], 'a change that did not commit paid nothing');
    const dropped = harness(() => []);
    await dropped.ledger.change({ row: row(), to: 'SUCCESS' }, 'executor');
    assert.deepEqual(dropped.paid, [], 'a stale change paid nothing');
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

  describe('a ledger transaction announces on commit, by construction', () => {
    const moves = (m: readonly TransitionMove[]) =>
      m.map((x) => row({ id: x.id, status: x.to, version: x.fromVersion + 1 }));
    const stateLines = (h: ReturnType<typeof harness>) =>
      h.lines.filter((l) => l.msg === 'payout state changed');

    it('a change whose transaction commits is announced once, after the COMMIT', async () => {
      const h = harness(moves);
      const out = await h.ledger.transaction(async (tx) => {
        const [moved] = await h.ledger.apply(tx, [{ row: row(), to: 'PENDING' }], 'reconciler');
        // The caller's own statement in the same transaction, after the ledger's step.
        await tx.client.query('INSERT caller row');
        assert.deepEqual(stateLines(h), [], 'nothing is announced before the commit');
        return moved;
      });
      assert.equal(out?.status, 'PENDING');
      assert.deepEqual(h.statements, ['BEGIN', 'transition', 'enqueue', 'INSERT caller row', 'COMMIT']);
      const lines = stateLines(h);
      assert.equal(lines.length, 1, 'announced once');
      assert.equal(lines[0]?.to, 'PENDING');
      assert.equal(lines[0]?.component, 'reconciler');
      assert.equal(lines[0]?.sent.at(-1), 'COMMIT', 'written after the commit');
    });

    it('a change whose transaction rolls back (the caller throws after it) is never announced', async () => {
      const h = harness(moves);
      await assert.rejects(
        h.ledger.transaction(async (tx) => {
          await h.ledger.apply(tx, [{ row: row(), to: 'PENDING' }], 'reconciler');
          throw new Error('the caller fails after the ledger step');
        }),
        /the caller fails/,
      );
      assert.deepEqual(h.statements, ['BEGIN', 'transition', 'enqueue', 'ROLLBACK']);
      assert.deepEqual(stateLines(h), []);
      assert.deepEqual(h.stale, [], 'not even as stale');
    });

    it('a change whose COMMIT fails is never announced', async () => {
      const h = harness(moves, ['COMMIT']);
      await assert.rejects(
        h.ledger.transaction((tx) => h.ledger.apply(tx, [{ row: row(), to: 'PENDING' }], 'reconciler')),
        /COMMIT failed/,
      );
      assert.deepEqual(stateLines(h), []);
    });

    it('a stale change in a committed transaction is counted once, after the commit', async () => {
      const h = harness(() => []);
      await h.ledger.transaction((tx) => h.ledger.apply(tx, [{ row: row(), to: 'PENDING' }], 'intake'));
      assert.deepEqual(h.stale, ['intake']);
    });

    it('a step refuses, before writing, a transaction the ledger did not open or one that has ended', async () => {
      const h = harness(moves);
      const forged = { client: await h.ledger.transaction((tx) => Promise.resolve(tx.client)) };
      h.statements.length = 0;
      await assert.rejects(
        h.ledger.apply(forged, [{ row: row(), to: 'PENDING' }], 'reconciler'),
        /not an open ledger transaction/,
      );
      let leaked: LedgerTransaction | undefined;
      await h.ledger.transaction((tx) => Promise.resolve((leaked = tx)));
      h.statements.length = 0;
      await assert.rejects(
        h.ledger.apply(leaked!, [{ row: row(), to: 'PENDING' }], 'reconciler'),
        /not an open ledger transaction/,
      );
      assert.deepEqual(h.statements, [], 'nothing written');
      assert.deepEqual(stateLines(h), []);
    });
  });
});
