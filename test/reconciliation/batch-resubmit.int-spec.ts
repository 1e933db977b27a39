import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { BatchRepository } from '#ledger';
import { eventually, startStack, type Stack } from '#test-support';
import { BatchMoves } from '../../libs/ledger/src/batch-moves.repository.js';
import { ACCOUNTS } from './helpers.js';

const MAX_SEND_ATTEMPTS = 3;

const entry = (transferId: string) => ({
  transferId,
  amount: '25.00',
  name: 'Batch Person',
  phone: '9876543210',
  ...ACCOUNTS.success,
});

const batch = (batchTransferId: string, ids: readonly string[]) => ({
  type: 'payout.batch_transfer',
  data: { batchTransferId, batchFormat: 'BANK_ACCOUNT', entries: ids.map(entry) },
});

interface Received {
  initiations: Array<{ endpoint: string; accepted: boolean; answer: string }>;
  accepted: number;
}

// A batch left SUBMITTING (a crash mid-call, or sends the provider did not process) follows the
// same rules as a single payout: asked about before it is sent again, and handed to a person
// after RECONCILE_SCHEDULE or MAX_SEND_ATTEMPTS, never re-sent forever.
describe('batches left SUBMITTING', () => {
  let stack: Stack;
  let pool: pg.Pool;
  before(async () => {
    stack = await startStack({
      env: {
        RECONCILE_SCHEDULE: '200ms,200ms,200ms,200ms,200ms,200ms',
        MAX_SEND_ATTEMPTS: String(MAX_SEND_ATTEMPTS),
        RESEND_DELAY_MS: '100',
      },
      sandbox: { batchDelayMs: 100 },
    });
    pool = new pg.Pool({ connectionString: stack.db.url, max: 4 });
    await stack.startService();
  });
  after(async () => {
    await pool?.end();
    await stack?.close();
  });

  const row = async (id: string) =>
    (
      await stack.sql<{ status: string; attempt: number; reason: string | null; version: number }>(
        'SELECT status, attempt, reason, version FROM batch WHERE batch_transfer_id = $1',
        [id],
      )
    )[0];
  const received = async (id: string) =>
    (await stack.sandboxCall('GET', `/__sandbox/received?transferId=${id}`)) as Received;

  it('one the provider never takes (every send rate limited) reaches REQUIRES_ATTENTION within MAX_SEND_ATTEMPTS', async () => {
    await stack.sandboxCall('POST', '/__sandbox/faults', {
      endpoint: 'requestBatchTransfer',
      burst429: 1000,
    });
    try {
      await stack.send(batch('rs_limited', ['rsl_1', 'rsl_2']));
      const attention = await stack.waitForStatus('rs_limited', 'REQUIRES_ATTENTION', 30_000);
      assert.match(attention.data.reason ?? '', /too_many_send_attempts|not_processed_after_retries/);
      const r = await row('rs_limited');
      assert.equal(r?.status, 'REQUIRES_ATTENTION');
      assert.ok((r?.attempt ?? 99) <= MAX_SEND_ATTEMPTS, `sent ${r?.attempt} times`);
      // It stays there: nothing sends it again.
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      assert.deepEqual(await row('rs_limited'), r);
    } finally {
      await stack.sandboxCall('DELETE', '/__sandbox/faults?endpoint=requestBatchTransfer');
    }
  });

  it('one the provider already has is asked about, not sent again', async () => {
    await stack.send(batch('rs_had', ['rsh_1', 'rsh_2']));
    await stack.waitForStatus('rs_had', 'COMPLETED');
    assert.equal((await received('rs_had')).initiations.length, 1);
    // As if the instance crashed after the provider took the batch, before the answer was recorded.
    await stack.sql(
      `UPDATE batch SET status = 'SUBMITTING', version = version + 1, next_check_at = now(),
              check_count = 0, lease_owner = NULL, lease_until = NULL
        WHERE batch_transfer_id = 'rs_had'`,
    );
    const crashedAt = (await row('rs_had'))!.version;
    await eventually(
      async () => {
        const r = await row('rs_had');
        return r && r.version > crashedAt && r.status === 'COMPLETED' ? r : undefined;
      },
      { what: 'the batch recovered from the status answer' },
    );
    const after = await row('rs_had');
    assert.equal(after?.attempt, 1, 'not sent again');
    assert.equal(after?.version, crashedAt + 1, 'one step: SUBMITTING to COMPLETED');
    assert.equal((await received('rs_had')).initiations.length, 1, 'the provider got it once');
    const last = stack.eventsOf('rs_had').at(-1);
    assert.equal(last?.data.status, 'COMPLETED');
    assert.deepEqual(last?.data.totals, { entries: 2, succeeded: 2, failed: 0, pending: 0 });
  });

  it('two overlapping checks of one batch: the older answer, written last, moves no entry backwards', async () => {
    const repo = new BatchRepository();
    // The ledger's internal statements (ADR 0003, amendment), as fixtures.
    const moves = new BatchMoves();
    const setup = await pool.connect();
    let batchId: string;
    try {
      await setup.query('BEGIN');
      const b = await moves.insertNew(setup, {
        accountId: 'default',
        batchTransferId: 'rs_overlap',
        batchFormat: 'BANK_ACCOUNT',
        requestHash: 'h',
        requestId: null,
        totalAmount: '50.00',
        entries: ['rso_1', 'rso_2'].map((t) => ({ transferId: t, amount: '25.00', entry: entry(t) })),
      });
      assert.ok(b && !('held' in b));
      batchId = b.id;
      await setup.query('COMMIT');
    } finally {
      setup.release();
    }
    const answer = (status: string) =>
      ['rso_1', 'rso_2'].map((transferId) => ({
        transferId,
        status,
        referenceId: null,
        utr: null,
        reason: null,
      }));
    const older = await pool.connect();
    const newer = await pool.connect();
    try {
      // The older check got "PENDING" and read the entries; the newer one got "SUCCESS" and
      // committed first; then the older one writes its answer.
      await older.query('BEGIN');
      assert.deepEqual(
        (await repo.items(older, batchId)).map((i) => i.status),
        ['RECEIVED', 'RECEIVED'],
      );
      await newer.query('BEGIN');
      assert.equal((await moves.updateItems(newer, batchId, answer('SUCCESS'))).length, 2);
      await newer.query('COMMIT');
      const moved = await moves.updateItems(older, batchId, answer('PENDING'));
      await older.query('COMMIT');
      assert.deepEqual(moved, [], 'nothing moved backwards');
    } finally {
      older.release();
      newer.release();
    }
    assert.deepEqual(
      (await repo.items(pool, batchId)).map((i) => [i.status, i.version]),
      [
        ['SUCCESS', 2],
        ['SUCCESS', 2],
      ],
    );
    // A reversal still applies.
    const c = await pool.connect();
    try {
      assert.equal((await moves.updateItems(c, batchId, answer('REVERSED'))).length, 2);
    } finally {
      c.release();
    }
  });
});
