import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { BatchRepository, type BatchRow } from '#ledger';
import { inTransaction } from '#database';
import { BatchMoves } from '../../libs/ledger/src/batch-moves.repository.js';
import { createTestDatabase, type TestDatabase } from '#test-support';

// The batch statements' guarantees, on the statements themselves: a move from a version that is
// gone changes nothing, two claimers never share a batch, and a lease keeps a batch from the
// checker until it runs out. Batches have no reversal watch (a SUCCESS entry's reversal arrives
// with a check of its batch). Entry updates that overlap are in
// test/reconciliation/batch-resubmit.int-spec.ts.
describe("BatchRepository and the ledger's BatchMoves (real Postgres)", () => {
  let db: TestDatabase;
  let pool: pg.Pool;
  const batches = new BatchRepository();
  // The ledger's internal statements (ADR 0003, amendment), reached directly as fixtures.
  const moves = new BatchMoves();

  before(async () => {
    db = await createTestDatabase();
    pool = new pg.Pool({ connectionString: db.url, max: 8 });
  });
  after(async () => {
    // pool.end() does not wait for its connections to close, and the drop (WITH FORCE) may cut
    // one still closing: that is an 'error' on the pool, not a failure of these tests.
    pool?.on('error', () => undefined);
    await pool?.end();
    await db?.drop();
  });
  beforeEach(async () => {
    await pool.query('DELETE FROM batch');
  });

  async function insert(ids: readonly string[]): Promise<void> {
    const c = await pool.connect();
    try {
      for (const batchTransferId of ids) {
        const b = await moves.insertNew(c, {
          accountId: 'default',
          batchTransferId,
          batchFormat: 'BANK_ACCOUNT',
          requestHash: 'h',
          requestId: null,
          totalAmount: '30.00',
          entries: [
            { transferId: `${batchTransferId}_1`, amount: '10.00', entry: {} },
            { transferId: `${batchTransferId}_2`, amount: '20.00', entry: {} },
          ],
        });
        assert.ok(b, `${batchTransferId} inserted`);
      }
    } finally {
      c.release();
    }
  }

  async function row(batchTransferId: string): Promise<BatchRow> {
    const r = await batches.findOne(pool, 'default', batchTransferId);
    assert.ok(r, `${batchTransferId} exists`);
    return r;
  }

  it('inserts a batch once with its entries; the same id again is not a new batch', async () => {
    await insert(['in_1']);
    const c = await pool.connect();
    try {
      const again = await moves.insertNew(c, {
        accountId: 'default',
        batchTransferId: 'in_1',
        batchFormat: 'UPI',
        requestHash: 'other',
        requestId: null,
        totalAmount: '5.00',
        entries: [{ transferId: 'x', amount: '5.00', entry: {} }],
      });
      assert.equal(again, undefined);
    } finally {
      c.release();
    }
    const b = await row('in_1');
    assert.equal(b.batchFormat, 'BANK_ACCOUNT');
    assert.deepEqual(
      (await batches.items(pool, b.id)).map((i) => [i.transferId, i.position, i.amount]),
      [
        ['in_1_1', 0, '10.00'],
        ['in_1_2', 1, '20.00'],
      ],
    );
  });

  describe('stale moves', () => {
    it('a transition, a re-send and a reschedule from a gone version change nothing', async () => {
      await insert(['st_b']);
      const [claimed] = await moves.claimForSubmission(pool, 'w', 60_000, 1);
      assert.ok(claimed);
      const now = await moves.transition(pool, claimed.id, claimed.version, 'UNKNOWN', {
        reason: 'elsewhere',
      });
      assert.equal(now?.version, claimed.version + 1);
      const before = await row('st_b');

      assert.equal(
        await moves.transition(pool, claimed.id, claimed.version, 'COMPLETED', { statusCode: '200' }),
        undefined,
      );
      assert.equal(await moves.markResent(pool, claimed.id, claimed.version, 'w', 60_000), undefined);
      await batches.reschedule(pool, claimed.id, claimed.version, new Date(Date.now() + 3_600_000));

      const after = await row('st_b');
      assert.deepEqual(after, before, 'the row is as the current version left it');
      const { rows } = await pool.query<{ next_check_at: Date | null }>(
        'SELECT next_check_at FROM batch WHERE id = $1',
        [claimed.id],
      );
      assert.equal(rows[0]?.next_check_at, null, 'the stale reschedule did not apply');
    });

    it('a re-send moves only a SUBMITTING or UNKNOWN batch at its current version', async () => {
      await insert(['rs_b']);
      const [claimed] = await moves.claimForSubmission(pool, 'w', 60_000, 1);
      assert.ok(claimed);
      const resent = await moves.markResent(pool, claimed.id, claimed.version, 'w', 60_000);
      assert.equal(resent?.attempt, 2);
      assert.equal(resent.status, 'SUBMITTING');
      const done = await moves.transition(pool, resent.id, resent.version, 'COMPLETED', {});
      assert.ok(done);
      assert.equal(await moves.markResent(pool, done.id, done.version, 'w', 60_000), undefined);
    });
  });

  describe('SKIP LOCKED claims', () => {
    it('a claim skips batches another open transaction holds, without waiting for it', async () => {
      await insert(['sk_0', 'sk_1', 'sk_2', 'sk_3']);
      const holder = await pool.connect();
      const other = await pool.connect();
      try {
        await holder.query('BEGIN');
        const held = await moves.claimForSubmission(holder, 'one', 60_000, 2);
        assert.equal(held.length, 2);
        await other.query(`SET statement_timeout = '10s'`);
        const rest = await moves.claimForSubmission(other, 'two', 60_000, 10);
        assert.equal(rest.length, 2);
        assert.equal(new Set([...held, ...rest].map((r) => r.id)).size, 4, 'no batch is in both claims');
        await holder.query('ROLLBACK');
        const again = await moves.claimForSubmission(other, 'two', 60_000, 10);
        assert.deepEqual(again.map((r) => r.id).sort(), held.map((r) => r.id).sort());
      } finally {
        await other.query('RESET statement_timeout');
        holder.release();
        other.release();
      }
    });

    it('concurrent claimers for submission and for checks never get the same batch', async () => {
      const ids = Array.from({ length: 30 }, (_, i) => `race_${i}`);
      await insert(ids);
      const claimers = (claim: () => Promise<BatchRow[]>): Promise<string[][]> =>
        Promise.all(
          Array.from({ length: 5 }, async () => {
            const mine: string[] = [];
            // Bounded: a claim that handed out rows again would otherwise loop for ever.
            for (let round = 0; round < 100; round++) {
              const got = await claim();
              if (got.length === 0) return mine;
              mine.push(...got.map((r) => r.batchTransferId));
            }
            return mine;
          }),
        );
      const submitted = await claimers(() =>
        inTransaction(pool, (c) => moves.claimForSubmission(c, 'race', 60_000, 3)),
      );
      assert.equal(submitted.flat().length, 30, 'every batch claimed once for submission');
      assert.equal(new Set(submitted.flat()).size, 30);

      await pool.query(`UPDATE batch SET status = 'PROCESSING', next_check_at = now() - interval '1 second'`);
      const checked = await claimers(() =>
        inTransaction(pool, (c) => batches.claimDueChecks(c, 'race', 60_000, 3)),
      );
      assert.equal(checked.flat().length, 30, 'every batch claimed once for a check');
      assert.equal(new Set(checked.flat()).size, 30);
    });
  });

  describe('leases', () => {
    it('a SUBMITTING batch is due for a check once its lease has run out, not before', async () => {
      await insert(['ls_live']);
      const [live] = await moves.claimForSubmission(pool, 'submitter', 60_000, 1);
      await insert(['ls_gone']);
      const [gone] = await moves.claimForSubmission(pool, 'submitter', 1, 1);
      assert.equal(live?.batchTransferId, 'ls_live');
      assert.equal(gone?.batchTransferId, 'ls_gone');
      await sleep(20);

      const due = await batches.claimDueChecks(pool, 'checker', 60_000, 10);
      assert.deepEqual(
        due.map((r) => r.batchTransferId),
        ['ls_gone'],
        'the live lease keeps its batch',
      );
      assert.equal(due[0]?.checkCount, 1);
      assert.deepEqual(
        await batches.claimDueChecks(pool, 'checker', 60_000, 10),
        [],
        'the check claim is a lease too',
      );
    });

    it('a re-send takes a new lease: the batch is due again only after it', async () => {
      await insert(['rl_b']);
      const [claimed] = await moves.claimForSubmission(pool, 'submitter', 1, 1);
      assert.ok(claimed);
      await sleep(20);
      const [due] = await batches.claimDueChecks(pool, 'checker', 1, 10);
      assert.ok(due);
      const resent = await moves.markResent(pool, due.id, due.version, 'checker', 60_000);
      assert.ok(resent);
      await sleep(20);
      assert.deepEqual(await batches.claimDueChecks(pool, 'checker', 60_000, 10), [], 'held by the re-send');
      // The re-send's lease runs out (a crash during the call): the batch comes back for a check.
      await pool.query(`UPDATE batch SET next_check_at = now() - interval '1 second', lease_until = now()`);
      const [back] = await batches.claimDueChecks(pool, 'checker', 60_000, 10);
      assert.equal(back?.batchTransferId, 'rl_b');
      assert.equal(back.status, 'SUBMITTING');
    });
  });
});
