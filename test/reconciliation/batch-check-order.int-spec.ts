import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import type pg from 'pg';
import { Registry } from 'prom-client';
import { createPool } from '#database';
import { BatchLedger, BatchRepository, HistoryRepository } from '#ledger';
import { createLogger } from '#observability';
import { OutboxRepository } from '#outbox';
import { BatchCheckWorker, type BatchSubmission, ReconcilerMetrics } from '#pipeline';
import { connectorsOf, type ProviderClient } from '#provider-client/testing';
import { createTestDatabase, strictFake, type TestDatabase } from '#test-support';
import { BatchMoves } from '../../libs/ledger/src/batch-moves.repository.js';

// A batch's entry events share the batch's key, and the relay publishes a key's events in id
// order as they become visible. Two checks of one batch that overlap (the first outlives its
// lease) must therefore commit in the order they drew their event ids: the second waits for the
// first. Otherwise an entry event could be published before an older one of the same key.
describe('overlapping checks of one batch', () => {
  let db: TestDatabase;
  let pool: pg.Pool;
  const batches = new BatchRepository();
  // The ledger's internal statements (ADR 0003, amendment), as fixtures.
  const moves = new BatchMoves();
  const outbox = new OutboxRepository();
  const logger = createLogger({ level: 'silent', name: 'test' });

  before(async () => {
    db = await createTestDatabase();
    pool = createPool({
      url: db.url,
      max: 8,
      applicationName: 'batch-order',
      onConnectionError: () => undefined,
    });
  });
  after(async () => {
    await pool?.end();
    await db?.drop();
  });

  /** A checker whose provider reports `entries` as SUCCESS, and whose batch change can be held. */
  function checker(
    owner: string,
    entries: string[],
    gate?: { reached: () => void; opened: Promise<void> },
    paid?: (accountId: string, paise: bigint) => void,
  ) {
    const real = new BatchLedger({ pool, outbox, history: new HistoryRepository(), logger, paid });
    const ledger = gate
      ? Object.assign(Object.create(real) as BatchLedger, {
          apply: async (...args: Parameters<BatchLedger['apply']>) => {
            gate.reached();
            await gate.opened;
            return real.apply(...args);
          },
        })
      : real;
    const client = strictFake<ProviderClient>('client', {
      call: async () => ({
        outcome: 'success',
        data: {
          referenceId: 1,
          transfers: entries.map((transferId) => ({
            transferId,
            status: 'SUCCESS',
            referenceId: 2,
            utr: 'U',
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
      // A lease of 1 ms: the second checker may claim the batch while the first still checks it.
      {
        owner,
        leaseMs: 1,
        schedule: [60_000],
        maxSendAttempts: 3,
        perRound: 1,
        pollMs: 10,
        failedWatch: [],
      },
    );
  }

  it('do not interleave: the second does not check the batch while the first holds it', async () => {
    const c = await pool.connect();
    try {
      await moves.insertNew(c, {
        accountId: 'default',
        batchTransferId: 'bo_1',
        batchFormat: 'BANK_ACCOUNT',
        requestHash: 'h',
        requestId: null,
        totalAmount: '30.00',
        entries: [
          { transferId: 'bo_1_a', amount: '10.00', entry: {} },
          { transferId: 'bo_1_b', amount: '20.00', entry: {} },
        ],
      });
    } finally {
      c.release();
    }
    assert.equal((await moves.claimForSubmission(pool, 'submitter', 1, 10)).length, 1);
    await sleep(20);

    let reached!: () => void;
    let open!: () => void;
    const atGate = new Promise<void>((r) => (reached = r));
    const opened = new Promise<void>((r) => (open = r));
    // The first check has written entry a's event and holds before its batch change.
    const first = checker('first', ['bo_1_a'], { reached, opened }).checkDue(1);
    await atGate;
    await sleep(20);
    // Meanwhile the lease has run out and another checker looks for due batches.
    let secondChecked: number | undefined;
    const second = checker('second', ['bo_1_b'])
      .checkDue(1)
      .then((n) => (secondChecked = n));
    await sleep(800);
    const visible = (
      await pool.query<{ event_id: string }>(
        'SELECT event_id FROM outbox WHERE message_key = $1 ORDER BY id',
        ['batch/default/bo_1'],
      )
    ).rows.map((r) => r.event_id);
    const checkedMeanwhile = secondChecked;
    open();
    await Promise.all([first, second]);
    // It may skip the batch (the first holds it) or wait for it; it must not check it meanwhile.
    assert.notEqual(
      checkedMeanwhile,
      1,
      'the second checker did not check the batch while the first held it',
    );
    assert.ok(
      !visible.some((id) => id.includes('bo_1_b')),
      `no event of the second check was visible before the first committed: ${visible.join(', ')}`,
    );
  });

  // The outflow FundsTimeToEmpty divides by (issue 32): each entry entering SUCCESS is counted
  // once, after its check commits, with the batch's account and the entry's amount in paise.
  it('counts each entry entering SUCCESS once, with its account and amount in paise', async () => {
    const c = await pool.connect();
    try {
      await moves.insertNew(c, {
        accountId: 'default',
        batchTransferId: 'bo_2',
        batchFormat: 'BANK_ACCOUNT',
        requestHash: 'h2',
        requestId: null,
        totalAmount: '30.05',
        entries: [
          { transferId: 'bo_2_a', amount: '10.05', entry: {} },
          { transferId: 'bo_2_b', amount: '20.00', entry: {} },
        ],
      });
    } finally {
      c.release();
    }
    assert.equal((await moves.claimForSubmission(pool, 'submitter', 1, 10)).length, 1);
    await sleep(20);
    const paid: Array<[string, bigint]> = [];
    const count = (accountId: string, paise: bigint) => paid.push([accountId, paise]);
    assert.equal(await checker('first', ['bo_2_a'], undefined, count).checkDue(1), 1);
    assert.deepEqual(paid, [['default', 1005n]]);
    // Due again now (its next check would be a minute away).
    await pool.query('UPDATE batch SET next_check_at = now() WHERE batch_transfer_id = $1', ['bo_2']);
    // Entry a is reported SUCCESS again: not counted twice.
    assert.equal(await checker('second', ['bo_2_a', 'bo_2_b'], undefined, count).checkDue(1), 1);
    assert.deepEqual(paid, [
      ['default', 1005n],
      ['default', 2000n],
    ]);
  });
});
