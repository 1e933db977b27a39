import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { type PayoutKind, PayoutRepository, type PayoutRow } from '#ledger';
import { FAILED_WATCH_KINDS, REVERSAL_WATCH_KINDS } from '#pipeline';
import { inTransaction } from '#database';
import { PayoutMoves } from '../../libs/ledger/src/payout-moves.repository.js';
import { createTestDatabase, type TestDatabase } from '#test-support';

// The guarantees the pipeline builds on, checked on the statements themselves (no service, no
// provider): a move from a version that is gone changes nothing, two claimers never share a row, a
// lease keeps a row from others until it runs out, and a SUCCESS of a watched kind is scheduled for
// its reversal check. (The lease heartbeat is in test/pipeline/lease-keeper.int-spec.ts, the
// outbox's claim in test/outbox/outbox-repository.int-spec.ts.)
describe("PayoutRepository and the ledger's PayoutMoves (real Postgres)", () => {
  let db: TestDatabase;
  let pool: pg.Pool;
  const payouts = new PayoutRepository();
  // The state-changing statements are the ledger's internals (ADR 0003, amendment); tests reach
  // them directly, as fixtures.
  const moves = new PayoutMoves();
  const watching = new PayoutMoves({
    reversalWatchFirstMs: 60_000,
    reversalWatchKinds: REVERSAL_WATCH_KINDS,
    failedWatchFirstMs: 120_000,
    failedWatchKinds: FAILED_WATCH_KINDS,
  });

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
    await pool.query('DELETE FROM payout');
  });

  async function insert(ids: readonly string[], kind: PayoutKind = 'direct_transfer'): Promise<void> {
    await moves.insertNew(
      pool,
      ids.map((transferId) => ({
        accountId: 'default',
        transferId,
        kind,
        requestHash: 'h',
        request: {},
        requestSecrets: null,
        amount: '10.00',
        requestId: null,
      })),
    );
  }

  async function row(transferId: string): Promise<PayoutRow> {
    const r = await payouts.findOne(pool, 'default', transferId);
    assert.ok(r, `${transferId} exists`);
    return r;
  }

  /** Seconds from now to the row's next_check_at, by the database's clock (null: not scheduled). */
  async function dueIn(transferId: string): Promise<number | null> {
    const { rows } = await pool.query<{ s: number | null }>(
      `SELECT extract(epoch FROM next_check_at - now())::float8 AS s FROM payout WHERE transfer_id = $1`,
      [transferId],
    );
    return rows[0]?.s ?? null;
  }

  describe('stale moves', () => {
    it('a bulk transition moves the rows at the version their caller saw and leaves a moved row alone', async () => {
      await insert(['st_a', 'st_b', 'st_c']);
      const claimed = await moves.claimForSubmission(pool, 'w', 60_000, 3);
      assert.equal(claimed.length, 3);
      const [a, b, c] = ['st_a', 'st_b', 'st_c'].map((id) => claimed.find((r) => r.transferId === id)!);
      // Another writer moves b on meanwhile.
      const moved = await moves.transition(pool, b!, 'UNKNOWN', { reason: 'elsewhere' }, false);
      assert.equal(moved?.version, b!.version + 1);

      const out = await moves.transitionMany(
        pool,
        [a!, b!, c!].map((r) => ({
          id: r.id,
          fromVersion: r.version,
          fromStatus: r.status,
          to: 'FAILED' as const,
          fields: { statusCode: '400', reason: 'late answer' },
          eraseSecrets: true,
        })),
        'executor',
      );
      assert.deepEqual(
        out.map((r) => r.transferId).sort(),
        ['st_a', 'st_c'],
        'the stale move is reported by its absence',
      );
      // The same statement wrote the history of each move it made, and none for the stale one.
      const { rows: history } = await pool.query<{
        transfer_id: string;
        from_status: string;
        version: number;
      }>(
        `SELECT transfer_id, from_status, version FROM state_history
          WHERE subject = 'payout' AND to_status = 'FAILED' AND cause = 'executor' AND status_code = '400'
          ORDER BY transfer_id`,
      );
      assert.deepEqual(history, [
        { transfer_id: 'st_a', from_status: 'SUBMITTING', version: a!.version + 1 },
        { transfer_id: 'st_c', from_status: 'SUBMITTING', version: c!.version + 1 },
      ]);
      assert.ok(out.every((r) => r.status === 'FAILED' && r.version === a!.version + 1));
      const stale = await row('st_b');
      assert.equal(stale.status, 'UNKNOWN');
      assert.equal(stale.version, b!.version + 1);
      assert.equal(stale.reason, 'elsewhere', 'its fields are untouched too');
      assert.equal(stale.statusCode, null);
    });

    it('a single transition, a re-send, a reopen and a reschedule from a gone version change nothing', async () => {
      await insert(['st_one']);
      const [claimed] = await moves.claimForSubmission(pool, 'w', 60_000, 1);
      assert.ok(claimed);
      const now = await moves.transition(pool, claimed, 'UNKNOWN', {}, false);
      assert.ok(now);
      const before = await row('st_one');

      const old = claimed.version;
      assert.equal(await moves.transition(pool, claimed, 'SUCCESS', {}, true), undefined);
      assert.equal(await moves.markResent(pool, claimed.id, old), undefined);
      assert.equal(await payouts.reschedule(pool, claimed.id, old, null, { stale: true }), false);
      await moves.transition(pool, now, 'REQUIRES_ATTENTION', { reason: 'person' }, false);
      assert.equal(await moves.reopenForRecheck(pool, now.id, now.version, 'operator'), undefined);

      const after = await row('st_one');
      assert.equal(after.status, 'REQUIRES_ATTENTION');
      assert.equal(after.version, before.version + 1, 'only the current-version move counted');
      assert.equal(after.attempt, before.attempt);
      assert.equal(after.lastError, null);
    });
  });

  describe('SKIP LOCKED claims', () => {
    it('a claim skips rows another open transaction holds, without waiting for it', async () => {
      await insert(['sk_0', 'sk_1', 'sk_2', 'sk_3', 'sk_4']);
      const holder = await pool.connect();
      const other = await pool.connect();
      try {
        await holder.query('BEGIN');
        const held = await moves.claimForSubmission(holder, 'one', 60_000, 2);
        assert.equal(held.length, 2);
        // Waiting on the holder's locks would fail this statement instead of passing late.
        await other.query(`SET statement_timeout = '10s'`);
        const rest = await moves.claimForSubmission(other, 'two', 60_000, 10);
        assert.equal(rest.length, 3);
        const ids = new Set([...held, ...rest].map((r) => r.id));
        assert.equal(ids.size, 5, 'no row is in both claims');
        await holder.query('ROLLBACK');
        // The holder gave up: its rows are RECEIVED again, and claimable.
        const again = await moves.claimForSubmission(other, 'two', 60_000, 10);
        assert.deepEqual(again.map((r) => r.id).sort(), held.map((r) => r.id).sort());
      } finally {
        await other.query('RESET statement_timeout');
        holder.release();
        other.release();
      }
    });

    it('concurrent claimers for submission and for checks never get the same row', async () => {
      const ids = Array.from({ length: 60 }, (_, i) => `race_${i}`);
      await insert(ids);
      const claimers = (claim: () => Promise<PayoutRow[]>): Promise<string[][]> =>
        Promise.all(
          Array.from({ length: 6 }, async () => {
            const mine: string[] = [];
            // Bounded: a claim that handed out rows again would otherwise loop for ever.
            for (let round = 0; round < 100; round++) {
              const got = await claim();
              if (got.length === 0) return mine;
              mine.push(...got.map((r) => r.transferId));
            }
            return mine;
          }),
        );
      const submitted = await claimers(() =>
        inTransaction(pool, (c) => moves.claimForSubmission(c, 'race', 60_000, 4)),
      );
      assert.equal(submitted.flat().length, 60, 'every row claimed once for submission');
      assert.equal(new Set(submitted.flat()).size, 60);

      // All due for a check now: the claim pushes each out by its lease, so each is taken once.
      await pool.query(`UPDATE payout SET status = 'PENDING', next_check_at = now() - interval '1 second'`);
      const checked = await claimers(() =>
        inTransaction(pool, (c) => payouts.claimDueChecks(c, 'race', 60_000, 4)),
      );
      assert.equal(checked.flat().length, 60, 'every row claimed once for a check');
      assert.equal(new Set(checked.flat()).size, 60);
    });
  });

  describe('leases', () => {
    it('a SUBMITTING row is due for a check once its lease has run out, not before', async () => {
      await insert(['ls_live']);
      const [live] = await moves.claimForSubmission(pool, 'executor', 60_000, 1);
      await insert(['ls_gone']);
      const [gone] = await moves.claimForSubmission(pool, 'executor', 1, 1);
      assert.equal(live?.transferId, 'ls_live');
      assert.equal(gone?.transferId, 'ls_gone');
      await sleep(20);

      const due = await payouts.claimDueChecks(pool, 'reconciler', 60_000, 10);
      assert.deepEqual(
        due.map((r) => r.transferId),
        ['ls_gone'],
        'the live lease keeps its row',
      );
      assert.equal(due[0]?.checkCount, 1);
      assert.deepEqual(
        await payouts.claimDueChecks(pool, 'reconciler', 60_000, 10),
        [],
        'the check claim is a lease too',
      );
    });

    it('an operator check-now pulls a row forward only when no lease on it is live', async () => {
      await insert(['cn_live', 'cn_gone']);
      const claimed = await moves.claimForSubmission(pool, 'executor', 60_000, 2);
      for (const r of claimed) await moves.transition(pool, r, 'PENDING', {}, false);
      await pool.query(`UPDATE payout SET next_check_at = now() - interval '1 second'`);
      await payouts.claimDueChecks(pool, 'reconciler', 60_000, 10);
      await pool.query(
        `UPDATE payout SET lease_until = now() - interval '1 second' WHERE transfer_id = 'cn_gone'`,
      );

      assert.equal(await payouts.checkNow(pool, (await row('cn_live')).id), undefined);
      const pulled = await payouts.checkNow(pool, (await row('cn_gone')).id);
      assert.equal(pulled?.transferId, 'cn_gone');
      assert.ok((await dueIn('cn_gone'))! <= 0, 'due now');
      assert.ok((await dueIn('cn_live'))! > 50, 'still leased to the reconciler');
    });
  });

  describe('reversal watch', () => {
    async function succeed(repo: PayoutMoves, transferId: string, kind: PayoutKind, nextCheckAt?: Date) {
      await insert([transferId], kind);
      const [claimed] = await repo.claimForSubmission(pool, 'w', 60_000, 1);
      assert.ok(claimed);
      assert.equal(claimed.transferId, transferId);
      // Checked a few times before the answer: entering SUCCESS restarts the count.
      await pool.query(`UPDATE payout SET check_count = 3 WHERE id = $1`, [claimed.id]);
      const done = await repo.transition(
        pool,
        claimed,
        'SUCCESS',
        { statusCode: '200', ...(nextCheckAt ? { nextCheckAt } : {}) },
        true,
      );
      assert.ok(done);
      assert.equal(done.status, 'SUCCESS');
      return done;
    }

    it('a SUCCESS of a watched kind gets its first reversal check after the configured delay', async () => {
      const done = await succeed(watching, 'rw_direct', 'direct_transfer');
      const s = await dueIn('rw_direct');
      assert.ok(s !== null && s > 30 && s <= 60, `first check in ${s} s`);
      assert.equal(done.checkCount, 0);
    });

    it('a kind with no reversal, or no watch configured, ends at SUCCESS with nothing scheduled', async () => {
      await succeed(watching, 'rw_self', 'self_withdrawal');
      await succeed(watching, 'rw_upi', 'validated_upi_payout');
      await succeed(moves, 'rw_off', 'direct_transfer');
      assert.equal(await dueIn('rw_self'), null);
      assert.equal(await dueIn('rw_upi'), null);
      assert.equal(await dueIn('rw_off'), null);
    });

    it('a check time the caller gives wins over the default delay', async () => {
      const at = new Date(Date.now() + 3_600_000);
      await succeed(watching, 'rw_given', 'card_payout', at);
      assert.equal((await row('rw_given')).nextCheckAt?.getTime(), at.getTime());
    });

    it('a watched SUCCESS is claimed when due, and a reschedule to null ends the watch', async () => {
      const done = await succeed(watching, 'rw_due', 'standard_transfer');
      assert.deepEqual(await payouts.claimDueChecks(pool, 'reconciler', 60_000, 10), [], 'not due yet');
      assert.ok(await payouts.reschedule(pool, done.id, done.version, new Date(Date.now() - 1000), null));
      const [due] = await payouts.claimDueChecks(pool, 'reconciler', 60_000, 10);
      assert.ok(due);
      assert.equal(due.transferId, 'rw_due');
      assert.equal(due.status, 'SUCCESS');
      assert.ok(await payouts.reschedule(pool, due.id, due.version, null, null));
      assert.equal(await dueIn('rw_due'), null);
      assert.deepEqual(await payouts.claimDueChecks(pool, 'reconciler', 60_000, 10), []);
    });
  });
  // Issue 29, defect 3: the failed watch is set by the ledger on entering any negative state of a
  // kind with a status endpoint, whoever writes it (a first-send refusal, a status check, a webhook,
  // four eyes): no path can forget it.
  describe('failed watch (every negative state)', () => {
    async function settle(
      repo: PayoutMoves,
      transferId: string,
      kind: PayoutKind,
      to: 'FAILED' | 'REJECTED',
    ) {
      await insert([transferId], kind);
      const [claimed] = await repo.claimForSubmission(pool, 'w', 60_000, 1);
      assert.ok(claimed);
      const done = await repo.transition(pool, claimed, to, { reason: 'refused' }, true, 'executor');
      assert.equal(done?.status, to);
      return done;
    }

    it('a FAILED or REJECTED of a kind with a status endpoint gets its first watch check, whatever the cause', async () => {
      await settle(watching, 'fw_failed', 'direct_transfer', 'FAILED');
      await settle(watching, 'fw_rejected', 'internal_transfer', 'REJECTED');
      for (const id of ['fw_failed', 'fw_rejected']) {
        const s = await dueIn(id);
        assert.ok(s !== null && s > 90 && s <= 120, `${id}: first watch check in ${s} s`);
      }
    });

    it('a REVERSED is watched and claimed; a kind without a status endpoint or an unsent row is not', async () => {
      const done = await settle(watching, 'fw_self', 'self_withdrawal', 'FAILED');
      assert.equal(await dueIn('fw_self'), null, 'no status endpoint: nothing to ask');
      assert.equal(done.checkCount, 0);
      await insert(['fw_intake']);
      const [fresh] = await payouts.findByIdentities(pool, [
        { accountId: 'default', transferId: 'fw_intake' },
      ]);
      await watching.transition(pool, fresh!, 'REJECTED', { reason: 'invalid' }, true, 'intake');
      assert.equal(await dueIn('fw_intake'), null, 'never sent: nothing to ask');
      await insert(['fw_rev'], 'standard_transfer');
      const [c] = await watching.claimForSubmission(pool, 'w', 60_000, 1);
      const ok = await watching.transition(pool, c!, 'SUCCESS', {}, true);
      const rev = await watching.transition(pool, ok!, 'REVERSED', { reason: 'reversed' }, true);
      assert.ok((await dueIn('fw_rev'))! > 90, 'REVERSED watched');
      assert.ok(await payouts.reschedule(pool, rev!.id, rev!.version, new Date(Date.now() - 1000), null));
      const [due] = await payouts.claimDueChecks(pool, 'reconciler', 60_000, 10);
      assert.equal(due?.transferId, 'fw_rev');
      assert.equal(due?.status, 'REVERSED');
    });

    it('the happy path writes nothing more: a SUCCESS of an unwatched kind stays unscheduled', async () => {
      await insert(['fw_upi'], 'validated_upi_payout');
      const [c] = await watching.claimForSubmission(pool, 'w', 60_000, 1);
      await watching.transition(pool, c!, 'SUCCESS', {}, true);
      assert.equal(await dueIn('fw_upi'), null);
    });
  });

  // Issue 29, defect 4: whether any attempt may have reached the provider is carried on the row.
  describe('maybe_reached', () => {
    it('is set by an outcome that may have reached, and by a re-send after an attempt not recorded unprocessed', async () => {
      await insert(['mr_unproc', 'mr_unknown', 'mr_crash']);
      const claimed = await moves.claimForSubmission(pool, 'w', 60_000, 3);
      const by = new Map(claimed.map((r) => [r.transferId, r]));
      // Certainly not processed (a 429): re-sending it does not mark the row.
      const unproc = await moves.transition(
        pool,
        by.get('mr_unproc')!,
        'SUBMITTING',
        { lastError: { processed: false } },
        false,
      );
      assert.equal(unproc?.maybeReached, false);
      const resent = await moves.markResent(pool, unproc.id, unproc.version);
      assert.equal(resent?.maybeReached, false);
      // An unclear answer: the outcome itself says it may have reached.
      const unknown = await moves.transition(
        pool,
        by.get('mr_unknown')!,
        'UNKNOWN',
        { maybeReached: true },
        false,
      );
      assert.equal(unknown?.maybeReached, true);
      // Sticky: a later write without it does not clear it.
      const later = await moves.transition(pool, unknown, 'PENDING', {}, false);
      assert.equal(later?.maybeReached, true);
      // A crash mid-call (SUBMITTING, nothing recorded): the re-send marks it.
      const crash = await moves.markResent(pool, by.get('mr_crash')!.id, by.get('mr_crash')!.version);
      assert.equal(crash?.maybeReached, true);
    });

    it('a refused re-send is stamped once and kept through a reopen', async () => {
      await insert(['rr']);
      const [c] = await moves.claimForSubmission(pool, 'w', 60_000, 1);
      const u = await moves.transition(
        pool,
        c!,
        'UNKNOWN',
        { reason: 'refused_on_resend', resendRefused: true },
        false,
      );
      assert.ok(u?.resendRefusedAt instanceof Date);
      const ra = await moves.transition(
        pool,
        u,
        'REQUIRES_ATTENTION',
        { reason: 'refused_on_resend' },
        false,
      );
      const reopened = await moves.reopenForRecheck(pool, ra!.id, ra!.version, 'operator recheck');
      assert.equal(reopened?.reason, 'operator recheck');
      assert.equal(reopened?.resendRefusedAt?.getTime(), u.resendRefusedAt.getTime());
    });
  });
});
