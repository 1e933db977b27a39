import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startStack, type Stack } from '#test-support';
import { ACCOUNTS } from './helpers.js';

const entry = (transferId: string, to: { bankAccount: string; ifsc: string }) => ({
  transferId,
  amount: '25.00',
  name: 'Batch Person',
  phone: '9876543210',
  ...to,
});

// A batch whose entries settle at different times and in different ways, followed with
// getBatchTransferStatus until every entry is final.
describe('reconciliation of a batch with mixed outcomes', () => {
  let stack: Stack;
  before(async () => {
    stack = await startStack({
      env: { RECONCILE_SCHEDULE: '200ms,200ms,300ms,300ms,500ms,500ms,1s,1s,2s' },
      sandbox: { pendingDelayMs: 1_500, batchDelayMs: 300 },
    });
    await stack.startService();
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
});
