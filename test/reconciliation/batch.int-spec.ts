import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { eventually, startStack, type Stack } from '#test-support';
import { type ServiceApp } from '../../apps/payout-service/src/bootstrap.js';
import { ACCOUNTS, metric } from './helpers.js';

const entry = (transferId: string, to: { bankAccount: string; ifsc: string }) => ({
  transferId,
  amount: '25.00',
  name: 'Batch Person',
  phone: '9876543210',
  ...to,
});

const CHECKS = 20;

// A batch whose entries settle at different times and in different ways, followed with
// getBatchTransferStatus until every entry is final.
describe('reconciliation of a batch with mixed outcomes', () => {
  let stack: Stack;
  let service: ServiceApp;
  const itemStatuses = (id: string): string[] => {
    const seen = new Set<string>();
    return stack.events
      .filter((e) => e.subject === id && e.type.startsWith('payouts.batch_item.'))
      .filter((e) => !seen.has(e.id) && Boolean(seen.add(e.id)))
      .map((e) => e.data.status);
  };
  before(async () => {
    stack = await startStack({
      env: {
        RECONCILE_SCHEDULE: Array(CHECKS).fill('200ms').join(','),
        FAILED_WATCH_SCHEDULE: Array(CHECKS).fill('300ms').join(','),
      },
      sandbox: { pendingDelayMs: 1_500, batchDelayMs: 300 },
    });
    service = await stack.startService();
  });
  after(async () => {
    await stack?.close();
  });

  it('per-entry events as entries settle, then COMPLETED with totals', async () => {
    await stack.send({
      type: 'payout.batch_transfer',
      data: {
        batchTransferId: 'rb_1',
        batchFormat: 'BANK_ACCOUNT',
        entries: [
          entry('rb_ok', ACCOUNTS.success),
          entry('rb_pok', ACCOUNTS.pendingThenSuccess),
          entry('rb_pfail', ACCOUNTS.pendingThenFailure),
          entry('rb_bad', ACCOUNTS.invalid),
        ],
      },
    });
    const completed = await stack.waitForStatus('rb_1', 'COMPLETED', 20_000);
    assert.deepEqual(completed.data.totals, { entries: 4, succeeded: 2, failed: 2, pending: 0 });

    const seen = new Set<string>();
    const items = stack.events
      .filter((e) => e.type.startsWith('payouts.batch_item.') && !seen.has(e.id) && Boolean(seen.add(e.id)))
      .map((e) => ({
        id: e.subject,
        status: e.data.status,
        reason: e.data.reason,
        batch: e.data.batchTransferId,
      }));
    const of = (id: string) => items.filter((i) => i.id === id).map((i) => i.status);
    assert.deepEqual(of('rb_ok'), ['SUCCESS']);
    assert.deepEqual(of('rb_bad'), ['FAILED']);
    assert.deepEqual(
      of('rb_pok'),
      ['PENDING', 'SUCCESS'],
      'the PENDING entry is announced, then its outcome',
    );
    assert.deepEqual(of('rb_pfail'), ['PENDING', 'FAILED']);
    assert.match(
      items.find((i) => i.id === 'rb_pfail' && i.status === 'FAILED')?.reason ?? '',
      /BENEFICIARY_BANK_OFFLINE/,
    );
    assert.ok(items.every((i) => i.batch === 'rb_1'));

    const batchStatuses = stack.eventsOf('rb_1').map((e) => e.data.status);
    assert.deepEqual([...new Set(batchStatuses)], ['RECEIVED', 'SUBMITTING', 'PROCESSING', 'COMPLETED']);
    // Every item event is published before the batch's completion (one key, in order).
    const lastItem = Math.max(
      ...stack.events.map((e, i) => (e.type.startsWith('payouts.batch_item.') ? i : -1)),
    );
    assert.ok(lastItem < stack.events.indexOf(completed));
  });

  it('an entry result that would undo a final state is ignored and counted', async () => {
    await stack.send({
      type: 'payout.batch_transfer',
      data: {
        batchTransferId: 'rb_2',
        batchFormat: 'BANK_ACCOUNT',
        entries: [entry('rb2_ok', ACCOUNTS.success), entry('rb2_wait', ACCOUNTS.staysPending)],
      },
    });
    await eventually(() => (itemStatuses('rb2_ok').includes('SUCCESS') ? true : undefined), {
      what: 'rb2_ok SUCCESS',
    });
    const before = await metric(service.url, 'payouts_reconciler_backwards_results_total');
    // The provider now reports the settled entry as PENDING again.
    const world = stack.sandbox.world;
    const ok = world.account.transfers.get('rb2_ok');
    assert.ok(ok, 'the sandbox holds the entry as a transfer');
    ok.steps.push({ at: world.clock.now(), status: 'PENDING', statusCode: '201', reason: '' });
    await eventually(
      async () =>
        (await metric(service.url, 'payouts_reconciler_backwards_results_total')) >= before + 2
          ? true
          : undefined,
      { timeoutMs: 10_000, what: 'backwards entry results counted' },
    );
    assert.deepEqual(itemStatuses('rb2_ok'), ['SUCCESS'], 'no event undoes the SUCCESS');
    const waiting = world.account.transfers.get('rb2_wait');
    assert.ok(waiting);
    waiting.steps.push({ at: world.clock.now(), status: 'SUCCESS', statusCode: '200', reason: '' });
    ok.steps.push({ at: world.clock.now(), status: 'SUCCESS', statusCode: '200', reason: '' });
    const completed = await stack.waitForStatus('rb_2', 'COMPLETED', 10_000);
    assert.deepEqual(completed.data.totals, { entries: 2, succeeded: 2, failed: 0, pending: 0 });
  });

  it('a schedule exhausted: REQUIRES_ATTENTION with an event, a metric and a log line', async () => {
    const before = await metric(service.url, 'payouts_requires_attention_total');
    await stack.send({
      type: 'payout.batch_transfer',
      data: {
        batchTransferId: 'rb_3',
        batchFormat: 'BANK_ACCOUNT',
        entries: [entry('rb3_ok', ACCOUNTS.success), entry('rb3_stuck', ACCOUNTS.staysPending)],
      },
    });
    const stuck = await stack.waitForStatus('rb_3', 'REQUIRES_ATTENTION', 15_000);
    assert.equal(stuck.data.reason, 'reconciliation_schedule_exhausted');
    assert.deepEqual(stuck.data.totals, { entries: 2, succeeded: 1, failed: 0, pending: 1 });
    assert.equal(
      await metric(service.url, 'payouts_requires_attention_total', {
        reason: 'reconciliation_schedule_exhausted',
      }),
      before + 1,
    );
    const line = stack.logLines.find((l) => l.includes('batch requires attention') && l.includes('rb_3'));
    assert.ok(line, 'an error line an alert can match');
    assert.match(line, /"level":"error"/);
  });

  // Issue 29, defect 3: entries are watched too. Before, an entry FAILED the provider later paid
  // was never asked about again once the batch was COMPLETED (nor, while it was open, anything but
  // a "backwards" warn line): upstream re-pays a FAILED entry.
  it('a FAILED entry of a COMPLETED batch the provider later pays is a contradiction: event, metric, queue row', async () => {
    const before = await metric(service.url, 'payouts_contradictions_total');
    await stack.send({
      type: 'payout.batch_transfer',
      data: {
        batchTransferId: 'rb_4',
        batchFormat: 'BANK_ACCOUNT',
        entries: [entry('rb4_ok', ACCOUNTS.success), entry('rb4_bad', ACCOUNTS.pendingThenFailure)],
      },
    });
    const completed = await stack.waitForStatus('rb_4', 'COMPLETED', 20_000);
    assert.deepEqual(completed.data.totals, { entries: 2, succeeded: 1, failed: 1, pending: 0 });
    const failedItem = stack.events.find(
      (e) => e.subject === 'rb4_bad' && e.type === 'payouts.batch_item.failed',
    );
    assert.ok(failedItem, 'the entry was published FAILED');
    // The provider now holds the FAILED entry as paid.
    const world = stack.sandbox.world;
    const bad = world.account.transfers.get('rb4_bad');
    assert.ok(bad, 'the sandbox holds the entry as a transfer');
    bad.steps.push({ at: world.clock.now(), status: 'SUCCESS', statusCode: '200', reason: '' });
    const contradicted = await eventually(
      () => stack.events.find((e) => e.subject === 'rb4_bad' && e.type === 'payouts.payout.contradicted'),
      { what: 'a payouts.payout.contradicted event for the entry', timeoutMs: 15_000 },
    );
    assert.equal(contradicted.data.status, 'FAILED', 'the published state is carried, not rewritten');
    assert.equal(contradicted.data.kind, 'batch_entry');
    assert.equal(contradicted.data.batchTransferId, 'rb_4');
    assert.deepEqual(contradicted.data.contradiction, {
      kind: 'paid_after_failure',
      published: 'FAILED',
      observed: 'SUCCESS',
      source: 'reconciler',
      observedCode: 'SUCCESS',
    });
    // Watched again: the same observation is recorded once.
    await new Promise((r) => setTimeout(r, 1_000));
    assert.equal(
      stack.events.filter((e) => e.subject === 'rb4_bad' && e.type === 'payouts.payout.contradicted').length,
      1,
    );
    assert.equal((await metric(service.url, 'payouts_contradictions_total')) - before, 1);
    const rows = await stack.sql<{ open: number; status: string }>(
      `SELECT (SELECT count(*)::int FROM payout_contradiction c WHERE c.batch_id = b.id AND c.transfer_id = 'rb4_bad'
                  AND c.acknowledged_at IS NULL) AS open,
              (SELECT i.status FROM batch_item i WHERE i.batch_id = b.id AND i.transfer_id = 'rb4_bad') AS status
         FROM batch b WHERE b.batch_transfer_id = 'rb_4'`,
    );
    assert.deepEqual(rows, [{ open: 1, status: 'FAILED' }], 'a queue row; the entry stays FAILED');
  });
});
