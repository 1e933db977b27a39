import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { type PayoutStatus } from '#contracts';
import { createPool } from '#database';
import { HistoryRepository, type PayoutChange, PayoutLedger, type PayoutRow } from '#ledger';
import { OutboxRepository } from '#outbox';
import { OutcomeRecorder } from '#pipeline';
import { PayoutMoves } from '../../libs/ledger/src/payout-moves.repository.js';
import { capturingLogger, createTestDatabase, TcpProxy, type TestDatabase } from '#test-support';

// The ledger's internal statements (ADR 0003, amendment), as fixtures.
const moves = new PayoutMoves();

/** `n` payouts claimed for submission (SUBMITTING, as the executor leaves them before its call). */
async function submitting(pool: pg.Pool, prefix: string, n: number): Promise<PayoutRow[]> {
  await moves.insertNew(
    pool,
    Array.from({ length: n }, (_, i) => ({
      accountId: 'default',
      transferId: `${prefix}_${i}`,
      kind: 'direct_transfer' as const,
      requestHash: 'h',
      request: {},
      requestSecrets: null,
      amount: '10.00',
      requestId: null,
    })),
  );
  return moves.claimForSubmission(pool, 'test', 60_000, n);
}

const success = (r: PayoutRow, over: PayoutChange['fields'] = {}): PayoutChange => ({
  row: r,
  to: 'SUCCESS',
  fields: { statusCode: '200', nextCheckAt: null, ...over },
});

// Outcomes are known answers of the provider: a lost one means a status check later at best.
// A group of them must survive what Postgres does to connections, and one bad row must not take
// the others down with it.
describe('OutcomeRecorder', () => {
  let db: TestDatabase;
  let direct: pg.Pool;
  const proxy = new TcpProxy('127.0.0.1', 5432);
  let viaProxy: pg.Pool;
  let recorder: OutcomeRecorder;

  before(async () => {
    db = await createTestDatabase();
    direct = new pg.Pool({ connectionString: db.url, max: 2 });
    const port = await proxy.start();
    const url = new URL(db.url);
    url.port = String(port);
    // The service's own pool: a connection cut while checked out emits 'error' on its client,
    // which a bare pg.Pool leaves unhandled (an uncaught exception that failed this test in CI).
    viaProxy = createPool({
      url: url.toString(),
      max: 4,
      applicationName: 'outcome-recorder-test',
      onConnectionError: () => undefined,
    });
    const logger = capturingLogger('silent').logger;
    recorder = new OutcomeRecorder(
      new PayoutLedger({
        pool: viaProxy,
        outbox: new OutboxRepository(),
        history: new HistoryRepository(),
        logger,
      }),
      logger,
      { lingerMs: 5, maxBatch: 100 },
    );
  });
  after(async () => {
    await proxy.cut();
    await viaProxy?.end().catch(() => undefined);
    await direct?.end();
    await db?.drop();
  });

  it('records a whole group after the Postgres connection drops and comes back', async () => {
    const rows = await submitting(direct, 'drop', 3);
    await viaProxy.query('SELECT 1'); // an idle pooled connection that the cut will kill
    await proxy.cut();
    const recorded = Promise.allSettled(rows.map((r) => recorder.record(success(r))));
    await sleep(700);
    await proxy.start();
    const moved = await recorded;
    assert.deepEqual(
      moved.map((m) => (m.status === 'fulfilled' ? m.value?.status : String(m.reason))),
      ['SUCCESS', 'SUCCESS', 'SUCCESS'],
    );
    const events = await direct.query<{ n: string }>(
      `SELECT count(*) AS n FROM outbox WHERE message_key LIKE 'payout/default/drop_%'`,
    );
    assert.equal(Number(events.rows[0]?.n), 3, 'each outcome with its event');
  });

  it('records the good rows of a group in which one row is bad, and fails only that one', async () => {
    const rows = await submitting(direct, 'bad', 3);
    const [a, b, c] = rows as [PayoutRow, PayoutRow, PayoutRow];
    const results = await Promise.allSettled([
      recorder.record(success(a)),
      // A move the ledger refuses (no such status in its state machine): a bug, not a reason to
      // drop a and c.
      recorder.record({ ...success(b), to: 'NOT_A_STATUS' as PayoutStatus }),
      recorder.record(success(c)),
    ]);
    assert.equal(results[0].status, 'fulfilled');
    assert.equal(results[2].status, 'fulfilled');
    assert.equal(results[1].status, 'rejected', 'the bad row alone is refused');
    const statuses = await direct.query<{ id: string; status: string }>(
      `SELECT id, status FROM payout WHERE transfer_id LIKE 'bad_%'`,
    );
    const byId = new Map(statuses.rows.map((r) => [String(r.id), r.status]));
    assert.deepEqual(
      [a, b, c].map((r) => byId.get(r.id)),
      ['SUCCESS', 'SUBMITTING', 'SUCCESS'],
    );
  });
});
