import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as delay } from 'node:timers/promises';
import { type PayoutLedger, type PayoutRow } from '#ledger';
import { type AppLogger } from '#observability';
import { payoutRow, strictFake } from '#test-support';
import { type PayoutSubmission } from '../shared/payout-submission.js';
import { PayoutExecutor } from './payout-executor.js';

/** An executor over a fake ledger whose claims answer from `due`, and sends that end on demand. */
function harness(concurrency: number, idlePollMs = 60_000) {
  const due: PayoutRow[] = [];
  const claims: number[] = [];
  const sends = new Map<string, () => void>();
  const errors: string[] = [];
  let failClaims = 0;
  const ledger = strictFake<PayoutLedger>('ledger', {
    claimForSubmission: async (_owner: string, _leaseMs: number, limit: number) => {
      claims.push(limit);
      if (failClaims > 0) {
        failClaims--;
        throw new Error('database away');
      }
      return due.splice(0, limit);
    },
  });
  const submission = strictFake<PayoutSubmission>('submission', {
    run: (row: PayoutRow) => new Promise<void>((r) => sends.set(row.transferId, r)),
  });
  const logger = {
    error: (_o: object, msg: string) => errors.push(msg),
    info: () => undefined,
  } as unknown as AppLogger;
  const failed: string[] = [];
  const executor = new PayoutExecutor(
    { ledger, logger, workerMetrics: { failed: (w) => failed.push(w) } },
    { owner: 'o', concurrency, leaseMs: 1_000, idlePollMs },
    submission,
  );
  const failNext = (n: number) => (failClaims = n);
  return { executor, due, claims, sends, errors, failed, failNext };
}

async function until(cond: () => boolean, ms = 2_000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) assert.fail('condition not reached');
    await delay(5);
  }
}

const row = (transferId: string) => payoutRow({ transferId, status: 'SUBMITTING' });

describe('PayoutExecutor loop', () => {
  it('claims only free slots, and claims again as soon as a send ends (not after the poll)', async () => {
    const h = harness(2);
    h.due.push(row('a'), row('b'), row('c'));
    h.executor.start();
    await until(() => h.sends.size === 2);
    await delay(30);
    assert.deepEqual(h.claims, [2], 'all slots busy: no claim');
    h.sends.get('a')!();
    await until(() => h.sends.has('c'));
    assert.deepEqual(h.claims, [2, 1], 'the freed slot is claimed at once');
    h.sends.get('b')!();
    h.sends.get('c')!();
    await h.executor.stop();
  });

  it('wake() (intake committed new payouts) ends the idle wait; stop() during it resolves at once', async () => {
    const h = harness(4);
    h.executor.start();
    await until(() => h.claims.length === 1);
    h.due.push(row('a'));
    h.executor.wake();
    await until(() => h.sends.has('a'));
    h.sends.get('a')!();
    await until(() => h.claims.length >= 3);
    await delay(20);
    const t0 = performance.now();
    await h.executor.stop();
    assert.ok(performance.now() - t0 < 1_000, 'stop() did not wait out the 60 s poll');
  });

  it('a failed claim backs off, is logged once for the streak and counted each time, then claims again', async () => {
    const h = harness(1);
    h.failNext(3);
    h.due.push(row('a'));
    h.executor.start();
    await until(() => h.sends.has('a'), 5_000);
    assert.equal(h.claims.length, 4);
    assert.deepEqual(h.errors, ['executor: claim failed; retrying']);
    assert.deepEqual(h.failed, ['executor', 'executor', 'executor']);
    h.sends.get('a')!();
    await h.executor.stop();
  });
});
