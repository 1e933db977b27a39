import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type pg from 'pg';
import { Registry } from 'prom-client';
import { type PayoutEvent } from '#contracts';
import { createPool } from '#database';
import { BatchLedger, BatchRepository, ContradictionRepository, HistoryRepository } from '#ledger';
import { createLogger } from '#observability';
import { contradictionView } from '#operations';
import { OutboxRepository } from '#outbox';
import {
  BatchCheckWorker,
  type BatchCheckWorkerSettings,
  type BatchSubmission,
  DEFAULT_CALENDAR,
  type LongWaitRules,
  ReconcilerMetrics,
} from '#pipeline';
import { connectorsOf, type ProviderClient } from '#provider-client/testing';
import { createTestDatabase, strictFake, type TestDatabase } from '#test-support';
import { BatchMoves } from '../../libs/ledger/src/batch-moves.repository.js';

/*
 * Issue 29, batches in the provider's long waits. A batch's entries may wait at the provider for
 * days (queued for low balance, approval pending, next working day), longer than the generic
 * batch check schedule: the entry keeps where it waits (row, events, views), the batch is checked
 * by its longest open wait, and a batch a person has is still asked (the attention watch) and
 * settles itself when the provider answers.
 */

const H = 3_600_000;
const WAITS: LongWaitRules = {
  queued: { delays: [H], maxMs: 4 * H },
  approvalPending: { delays: [2 * H], maxMs: 24 * H },
  nextWorkingDay: { delays: [H], cutoffMinutes: 18 * 60, settleMs: 4 * H },
  attention: { delays: [3 * H], maxMs: 14 * 24 * H },
  calendar: DEFAULT_CALENDAR,
  accounts: new Map(),
};

describe('batches in the provider long waits', () => {
  let db: TestDatabase;
  let pool: pg.Pool;
  const batches = new BatchRepository();
  const moves = new BatchMoves();
  const logger = createLogger({ level: 'silent', name: 'test' });
  let seq = 0;
  /** What the provider answers for the batch's entries next: transferId -> status. */
  let answer: Record<string, string> = {};

  before(async () => {
    db = await createTestDatabase();
    pool = createPool({
      url: db.url,
      max: 4,
      applicationName: 'batch-waits',
      onConnectionError: () => undefined,
    });
  });
  after(async () => {
    await pool?.end();
    await db?.drop();
  });
  beforeEach(() => {
    answer = {};
  });

  function worker(settings: Partial<BatchCheckWorkerSettings> = {}): BatchCheckWorker {
    const client = strictFake<ProviderClient>('client', {
      call: async () => ({
        outcome: 'success',
        data: {
          referenceId: 7,
          transfers: Object.entries(answer).map(([transferId, status]) => ({
            transferId,
            status,
            referenceId: 8,
            ...(status === 'SUCCESS' ? { utr: `U${transferId}` } : {}),
          })),
        },
        diagnostics: {
          endpoint: 'getBatchTransferStatus',
          requestId: 'r',
          sent: true,
          attempts: 1,
          durationMs: 1,
        },
      }),
    });
    const ledger = new BatchLedger({
      pool,
      outbox: new OutboxRepository(),
      history: new HistoryRepository(),
      logger,
      contradictions: new ContradictionRepository(),
    });
    return new BatchCheckWorker(
      {
        pool,
        batches,
        ledger,
        connectors: connectorsOf(client),
        submission: strictFake<BatchSubmission>('submission'),
        logger,
        metrics: new ReconcilerMetrics(new Registry()),
      },
      {
        owner: 'w',
        leaseMs: 60_000,
        // The generic schedule is spent after the first check.
        schedule: [10],
        maxSendAttempts: 3,
        perRound: 1,
        pollMs: 10,
        failedWatch: [],
        waits: WAITS,
        ...settings,
      },
    );
  }

  /** A batch of `n` entries, sent (SUBMITTING) and due for its first check now. */
  async function sentBatch(n: number): Promise<{ id: string; entries: string[] }> {
    seq += 1;
    const batchTransferId = `lw_${seq}`;
    const entries = Array.from({ length: n }, (_, i) => `${batchTransferId}_${i}`);
    const c = await pool.connect();
    try {
      await moves.insertNew(c, {
        accountId: 'default',
        batchTransferId,
        batchFormat: 'BANK_ACCOUNT',
        requestHash: 'h',
        requestId: null,
        totalAmount: `${n * 10}.00`,
        entries: entries.map((transferId) => ({ transferId, amount: '10.00', entry: {} })),
      });
    } finally {
      c.release();
    }
    await moves.claimForSubmission(pool, 'submitter', 60_000, 10);
    const { rows } = await pool.query<{ id: string }>(
      `UPDATE batch SET next_check_at = now(), lease_until = NULL WHERE batch_transfer_id = $1 RETURNING id`,
      [batchTransferId],
    );
    return { id: rows[0]!.id, entries };
  }

  async function dueNow(id: string): Promise<void> {
    await pool.query(`UPDATE batch SET next_check_at = now(), lease_until = NULL WHERE id = $1`, [id]);
  }

  async function batchRow(id: string) {
    const { rows } = await pool.query<{
      status: string;
      reason: string | null;
      next_check_at: Date | null;
      version: number;
    }>(`SELECT status, reason, next_check_at, version FROM batch WHERE id = $1`, [id]);
    return rows[0]!;
  }

  async function entryEvents(id: string): Promise<PayoutEvent[]> {
    const { rows } = await pool.query<{ payload: PayoutEvent }>(
      `SELECT o.payload FROM outbox o JOIN batch b ON o.message_key = 'batch/' || b.account_id || '/' || b.batch_transfer_id
        WHERE b.id = $1 AND o.event_type LIKE 'payouts.batch_item.%' ORDER BY o.id`,
      [id],
    );
    return rows.map((r) => r.payload);
  }

  it('an entry keeps where it waits: on its row and in its event; a new wait is a new version', async () => {
    const w = worker();
    const b = await sentBatch(2);
    answer = { [b.entries[0]!]: 'QUEUED', [b.entries[1]!]: 'PENDING' };
    assert.equal(await w.checkDue(1), 1);
    const items = await batches.items(pool, b.id);
    assert.deepEqual(
      items.map((i) => [i.status, i.subState]),
      [
        ['PENDING', 'queued'],
        ['PENDING', null],
      ],
    );
    const first = await entryEvents(b.id);
    assert.deepEqual(
      first.map((e) => [e.subject, e.data.status, e.data.subState]),
      [
        [b.entries[0], 'PENDING', 'queued'],
        [b.entries[1], 'PENDING', undefined],
      ],
    );
    // Approval pending now: a PENDING -> PENDING version of the entry, with its event.
    answer = { [b.entries[0]!]: 'APPROVAL_PENDING', [b.entries[1]!]: 'PENDING' };
    await dueNow(b.id);
    await w.checkDue(1);
    const [a] = await batches.items(pool, b.id);
    assert.equal(a?.subState, 'approval_pending');
    assert.equal(a?.version, 3);
    const last = (await entryEvents(b.id)).at(-1);
    assert.equal(last?.data.subState, 'approval_pending');
    assert.equal(last?.data.version, 3);
    // Paid: the sub-state is cleared, and the event says no more.
    answer = { [b.entries[0]!]: 'SUCCESS', [b.entries[1]!]: 'PENDING' };
    await dueNow(b.id);
    await w.checkDue(1);
    const [paid] = await batches.items(pool, b.id);
    assert.equal(paid?.subState, null);
    assert.equal((await entryEvents(b.id)).at(-1)?.data.subState, undefined);
  });

  it('a batch whose entry waits in the queue is not handed to a person when the generic schedule is spent', async () => {
    const w = worker();
    const b = await sentBatch(2);
    answer = { [b.entries[0]!]: 'QUEUED', [b.entries[1]!]: 'SUCCESS' };
    await w.checkDue(1);
    assert.equal((await batchRow(b.id)).status, 'PROCESSING');
    // Second check: RECONCILE_SCHEDULE is spent, the entry still queued (well within 4 hours).
    await dueNow(b.id);
    const before = Date.now();
    await w.checkDue(1);
    const row = await batchRow(b.id);
    assert.equal(row.status, 'PROCESSING', `reason ${row.reason}`);
    // Asked again on the queue's schedule (hourly here), not given up on.
    const inMs = (row.next_check_at?.getTime() ?? 0) - before;
    assert.ok(inMs > 0.9 * H && inMs <= H + 1_000, `next check in ${inMs} ms`);
  });

  it('the batch goes by its longest open wait: a plain pending entry rides along with a queued one', async () => {
    const w = worker();
    const b = await sentBatch(2);
    answer = { [b.entries[0]!]: 'QUEUED', [b.entries[1]!]: 'PENDING' };
    await w.checkDue(1);
    await dueNow(b.id);
    await w.checkDue(1);
    assert.equal((await batchRow(b.id)).status, 'PROCESSING');
  });

  it('past the wait bound a person has it, with a reason naming the wait, and the attention watch goes on asking', async () => {
    const w = worker();
    const b = await sentBatch(1);
    answer = { [b.entries[0]!]: 'QUEUED' };
    await w.checkDue(1);
    // The entry has been queued for five hours: past the provider's queue time (4 h here).
    await pool.query(`UPDATE batch_item SET updated_at = now() - interval '5 hours' WHERE batch_id = $1`, [
      b.id,
    ]);
    await dueNow(b.id);
    const before = Date.now();
    await w.checkDue(1);
    const row = await batchRow(b.id);
    assert.equal(row.status, 'REQUIRES_ATTENTION');
    assert.equal(row.reason, 'queued_past_provider_maximum');
    const inMs = (row.next_check_at?.getTime() ?? 0) - before;
    assert.ok(inMs > 2.9 * H && inMs <= 3 * H + 1_000, `attention watch in ${inMs} ms`);
  });

  it('a batch a person has leaves the queue when the provider settles every entry (settled_by_provider_while_waiting)', async () => {
    const w = worker();
    const b = await sentBatch(2);
    answer = { [b.entries[0]!]: 'PENDING', [b.entries[1]!]: 'PENDING' };
    await w.checkDue(1);
    await dueNow(b.id);
    await w.checkDue(1);
    assert.equal((await batchRow(b.id)).status, 'REQUIRES_ATTENTION');
    // Still pending at the provider: it stays with the person, the watch goes on.
    await dueNow(b.id);
    await w.checkDue(1);
    const waiting = await batchRow(b.id);
    assert.equal(waiting.status, 'REQUIRES_ATTENTION');
    assert.ok(waiting.next_check_at !== null);
    // One paid, one failed at the provider: the batch is COMPLETED by the provider's answer.
    answer = { [b.entries[0]!]: 'SUCCESS', [b.entries[1]!]: 'FAILED' };
    await dueNow(b.id);
    assert.equal(await w.checkDue(1), 1);
    const settled = await batchRow(b.id);
    assert.equal(settled.status, 'COMPLETED');
    assert.equal(settled.reason, 'settled_by_provider_while_waiting');
    const items = await batches.items(pool, b.id);
    assert.deepEqual(
      items.map((i) => i.status),
      ['SUCCESS', 'FAILED'],
    );
  });

  it('the attention watch records a contradiction of an entry, and the contradiction view names its batch', async () => {
    const w = worker();
    const b = await sentBatch(2);
    answer = { [b.entries[0]!]: 'FAILED', [b.entries[1]!]: 'PENDING' };
    await w.checkDue(1);
    await dueNow(b.id);
    await w.checkDue(1);
    assert.equal((await batchRow(b.id)).status, 'REQUIRES_ATTENTION');
    // The provider now holds the FAILED entry as paid: recorded, never applied.
    answer = { [b.entries[0]!]: 'SUCCESS', [b.entries[1]!]: 'PENDING' };
    await dueNow(b.id);
    await w.checkDue(1);
    const [failed] = await batches.items(pool, b.id);
    assert.equal(failed?.status, 'FAILED');
    const open = (await new ContradictionRepository().open(pool, 100)).filter(
      (c) => c.transferId === b.entries[0],
    );
    assert.equal(open.length, 1);
    const view = contradictionView(open[0]!);
    assert.equal(view.batchTransferId, `lw_${seq}`);
    assert.equal(view.transferId, b.entries[0]);
  });

  it('without the long waits (no rules) a batch is handed to a person as before, and not watched', async () => {
    const w = worker({ waits: undefined });
    const b = await sentBatch(1);
    answer = { [b.entries[0]!]: 'QUEUED' };
    await w.checkDue(1);
    await dueNow(b.id);
    await w.checkDue(1);
    const row = await batchRow(b.id);
    assert.equal(row.status, 'REQUIRES_ATTENTION');
    assert.equal(row.reason, 'reconciliation_schedule_exhausted');
    assert.equal(row.next_check_at, null);
  });
});
