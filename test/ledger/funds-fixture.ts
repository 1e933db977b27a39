import { after, before, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import {
  BalanceReadingRepository,
  BatchLedger,
  BatchRepository,
  type FundsClaimRound,
  type FundsDecide,
  type FundsRoom,
  HistoryRepository,
  PayoutLedger,
  PayoutRepository,
} from '#ledger';
import { OutboxRepository } from '#outbox';
import { decideFundsHold, FAILED_WATCH_KINDS, fundsRoomPaise } from '#pipeline';
import { capturingLogger, createTestDatabase, type TestDatabase } from '#test-support';
import { BatchMoves } from '../../libs/ledger/src/batch-moves.repository.js';
import { FundsClaimReads } from '../../libs/ledger/src/funds-claim.repository.js';
import { PayoutMoves } from '../../libs/ledger/src/payout-moves.repository.js';

/** The held account of the funds-claim specs. */
export const ACC = 'acc_held';
export const H = 3_600_000;

/**
 * The funds-aware claim's specs' fixture (ADR 0027), on real Postgres: a test database per file,
 * a ledger for payouts and one for batches in one pool (`other`: a second pool, as a second
 * instance), each test on empty tables; and the helpers that make payouts, batches, readings and
 * the provider's answers through the ledger's own moves. Call it inside `describe`.
 */
export function fundsFixture() {
  let db: TestDatabase;
  const f = {
    pool: undefined as unknown as pg.Pool,
    other: undefined as unknown as pg.Pool,
    ledger: undefined as unknown as PayoutLedger,
    batchLedger: undefined as unknown as BatchLedger,
    outbox: new OutboxRepository(),
    history: new HistoryRepository(),
    readings: new BalanceReadingRepository(),
    moves: new PayoutMoves(),
    batchMoves: new BatchMoves(),
    reads: new FundsClaimReads(),
  };

  before(async () => {
    db = await createTestDatabase();
    f.pool = new pg.Pool({ connectionString: db.url, max: 4 });
    f.other = new pg.Pool({ connectionString: db.url, max: 4 });
    const logger = capturingLogger('silent').logger;
    const failedWatch = { failedWatchFirstMs: 60_000, failedWatchKinds: FAILED_WATCH_KINDS };
    f.ledger = new PayoutLedger({
      pool: f.pool,
      outbox: f.outbox,
      history: f.history,
      logger,
      reversalWatch: { reversalWatchFirstMs: null, reversalWatchKinds: [], ...failedWatch },
    });
    f.batchLedger = new BatchLedger({
      pool: f.pool,
      outbox: f.outbox,
      history: f.history,
      logger,
      failedWatchFirstMs: 60_000,
    });
  });
  after(async () => {
    f.pool?.on('error', () => undefined);
    f.other?.on('error', () => undefined);
    await f.pool?.end();
    await f.other?.end();
    await db?.drop();
  });
  beforeEach(async () => {
    await f.pool.query(
      'TRUNCATE payout, batch, batch_item, transfer_identity, balance_reading, outbox, state_history CASCADE',
    );
  });

  const decide =
    (threshold = 0n, maxHoldMs = 96 * H): FundsDecide =>
    (c, facts) =>
      decideFundsHold(c, { ...facts, threshold, maxHoldMs });
  /** The rule's room (the fast path's), with the same threshold as `decide`'s. */
  const room =
    (threshold = 0n): FundsRoom =>
    (facts) =>
      fundsRoomPaise({ ...facts, threshold });
  const round = (over: Partial<FundsClaimRound> = {}): FundsClaimRound => ({
    accountId: ACC,
    owner: 'w',
    leaseMs: 60_000,
    slots: 10,
    window: 500,
    decide: decide(),
    ...over,
  });

  /** One payout per call, so each has its own created_at (the order they came in). */
  async function pay(transferId: string, amount: string, accountId = ACC): Promise<void> {
    const [r] = await f.moves.insertNew(f.pool, [
      {
        accountId,
        transferId,
        kind: 'direct_transfer',
        requestHash: 'h',
        request: {},
        requestSecrets: null,
        amount,
        requestId: null,
      },
    ]);
    assert.ok(r, transferId);
  }

  async function batch(batchTransferId: string, amounts: readonly string[]): Promise<void> {
    const c = await f.pool.connect();
    try {
      const total = amounts.reduce((s, a) => s + Number(a) * 100, 0);
      const b = await f.batchMoves.insertNew(c, {
        accountId: ACC,
        batchTransferId,
        batchFormat: 'BANK_ACCOUNT',
        requestHash: 'h',
        requestId: null,
        totalAmount: (total / 100).toFixed(2),
        entries: amounts.map((amount, i) => ({ transferId: `${batchTransferId}_${i}`, amount, entry: {} })),
      });
      assert.ok(b, batchTransferId);
    } finally {
      c.release();
    }
  }

  /**
   * A successful reading of the account. Asked now (`ago` 0): as the balance reader asks, with the
   * account's figures at the ask (the rounds read the bound first). Asked `ago` ms before the
   * database's now: without figures (they would be now's, not then's), so the rounds use the
   * exact sum with it. `fee`: the account's fee per transfer, as the reader asks with it.
   */
  async function reading(available: string, agoMs = 0, fee = 0n): Promise<Date> {
    if (agoMs === 0) {
      await f.readings.claimDue(f.pool, [ACC], 60_000);
      const ask = await f.readings.ask(f.pool, ACC, fee);
      assert.ok(ask.figures, 'the account has its row: the ask takes its figures');
      await f.readings.record(f.pool, ACC, available, available, ask);
      return ask.askedAt;
    }
    const { rows } = await f.pool.query<{ t: Date }>(`SELECT now() - $1 * interval '1 millisecond' AS t`, [
      agoMs,
    ]);
    const at = rows[0]!.t;
    await f.readings.record(f.pool, ACC, available, available, { askedAt: at, figures: null });
    return at;
  }

  /** The provider's answer, recorded through the ledger's move from the row's current version. */
  const answer = async (transferId: string, to: 'PENDING' | 'SUCCESS' | 'UNKNOWN' | 'FAILED', acc = ACC) => {
    const row = await new PayoutRepository().findOne(f.pool, acc, transferId);
    assert.ok(row && (await f.ledger.change({ row, to }, 'reconciler')), transferId);
  };
  const answerBatch = async (batchTransferId: string, to: 'PROCESSING' | 'COMPLETED' | 'FAILED') => {
    const [b] = await new BatchRepository().findByIdentities(f.pool, [{ accountId: ACC, batchTransferId }]);
    assert.ok(b && (await f.batchLedger.change({ batch: b, to }, 'batches')), batchTransferId);
  };

  /** The exact committed sum (each transfer with `fee`); the bound, where the reading has one, is never less. */
  const committed = async (fee = 0n): Promise<bigint> => {
    const exact = (await f.reads.facts(f.pool, ACC, fee)).committed;
    const bound = await f.reads.bound(f.pool, ACC);
    if (bound) assert.ok(bound.committed >= exact, `bound ${bound.committed} < exact ${exact}`);
    return exact;
  };

  /**
   * A payout ledger of its own (its own fast-path memory) that counts its funds rounds' full reads
   * and hands each to `afterRead` (the read's number, from 1) before the round goes on: a test's
   * interference between a round's read and its send.
   */
  function watchingReads(afterRead?: (n: number) => Promise<void>): {
    ledger: PayoutLedger;
    reads: () => number;
  } {
    let reads = 0;
    const moves = new PayoutMoves();
    const read = moves.fundsRound.bind(moves);
    moves.fundsRound = async (...args: Parameters<PayoutMoves['fundsRound']>) => {
      const r = await read(...args);
      reads++;
      await afterRead?.(reads);
      return r;
    };
    const ledger = new PayoutLedger(
      { pool: f.pool, outbox: f.outbox, history: f.history, logger: capturingLogger('silent').logger },
      moves,
    );
    return { ledger, reads: () => reads };
  }

  return { f, decide, room, round, pay, batch, reading, answer, answerBatch, committed, watchingReads };
}
