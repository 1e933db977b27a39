import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { HistoryRepository, type PayoutLedgerDeps, PayoutLedger, type PayoutRow } from '#ledger';
import { OutboxRepository } from '#outbox';
import { capturingLogger, createTestDatabase, type TestDatabase } from '#test-support';

// EVENTS_ACCEPTED and EVENTS_SUBMITTING (issue 23, events per payout): what a payout publishes
// when it settles at once, with each setting. Terminal and refused states are always published.
describe('which states a payout publishes', () => {
  let db: TestDatabase;
  let pool: pg.Pool;

  before(async () => {
    db = await createTestDatabase();
    pool = new pg.Pool({ connectionString: db.url, max: 4 });
  });
  after(async () => {
    await pool?.end();
    await db?.drop();
  });

  function ledger(over: Partial<PayoutLedgerDeps>): PayoutLedger {
    return new PayoutLedger({
      pool,
      outbox: new OutboxRepository(),
      history: new HistoryRepository(),
      logger: capturingLogger('silent').logger,
      ...over,
    });
  }

  /** Admits `prefix_0..n-1`, moves them to SUBMITTING and then SUCCESS; returns the events written. */
  async function settle(
    l: PayoutLedger,
    prefix: string,
    n: number,
  ): Promise<Array<{ key: string; type: string; status: string }>> {
    const admitted = await l.transaction((tx) =>
      l.admit(
        tx,
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
      ),
    );
    assert.equal(admitted.length, n);
    const submitting = (await l.changeMany(
      admitted.map((row) => ({ row, to: 'SUBMITTING' as const })),
      'executor',
    )) as PayoutRow[];
    await l.changeMany(
      submitting.map((row) => ({
        row,
        to: 'SUCCESS' as const,
        fields: { statusCode: '200', nextCheckAt: null },
      })),
      'executor',
    );
    const { rows } = await pool.query<{ key: string; type: string; status: string }>(
      `SELECT message_key AS key, event_type AS type, payload->'data'->>'status' AS status
         FROM outbox WHERE message_key LIKE $1 ORDER BY id`,
      [`%${prefix}_%`],
    );
    return rows;
  }

  it('publishes accepted, submitting and the outcome by default', async () => {
    const events = await settle(ledger({}), 'all', 2);
    assert.deepEqual(
      events.map((e) => e.status),
      ['RECEIVED', 'RECEIVED', 'SUBMITTING', 'SUBMITTING', 'SUCCESS', 'SUCCESS'],
    );
  });

  it('EVENTS_ACCEPTED=skip leaves out the accepted event only', async () => {
    const events = await settle(ledger({ publishAccepted: false }), 'noacc', 2);
    assert.deepEqual(
      events.map((e) => e.status),
      ['SUBMITTING', 'SUBMITTING', 'SUCCESS', 'SUCCESS'],
    );
  });

  it('with both skipped, a payout that settles at once publishes its outcome alone', async () => {
    const events = await settle(ledger({ publishAccepted: false, publishSubmitting: false }), 'terminal', 3);
    assert.deepEqual(
      events.map((e) => [e.type, e.status]),
      Array.from({ length: 3 }, () => ['payouts.payout.succeeded', 'SUCCESS']),
    );
  });
});
