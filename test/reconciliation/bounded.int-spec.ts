import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startStack, type Stack } from '#test-support';

// Nothing is retried forever: a payout the provider never processes ends with a person
// (REQUIRES_ATTENTION) after the reconcile schedule. (MAX_SEND_ATTEMPTS, the bound for answers that
// contradict each other, is unit-tested in libs/pipeline/src/reconciler/payout-reconciler.spec.ts.)
describe('re-sends are bounded', () => {
  let stack: Stack;
  before(async () => {
    stack = await startStack({
      env: {
        RECONCILE_SCHEDULE: '150ms,150ms,150ms',
        RESEND_DELAY_MS: '50',
        PROVIDER_MAX_ATTEMPTS: '1',
      },
    });
    await stack.startService();
  });
  after(async () => {
    await stack?.close();
  });

  const direct = (transferId: string, bankAccount = '026291800001191', ifsc = 'YESB0000262') => ({
    type: 'payout.direct_transfer',
    data: { transferId, amount: '10.00', beneDetails: { name: 'Bounded', bankAccount, ifsc } },
  });

  it('a payout the provider keeps refusing with 429 is handed to a person, never sent as processed', async () => {
    await stack.sandboxCall('POST', '/__sandbox/faults', { endpoint: 'directTransfer', burst429: 1000 });
    try {
      await stack.send(direct('bounded_429'));
      const ra = await stack.waitForStatus('bounded_429', 'REQUIRES_ATTENTION', 30_000);
      assert.equal(ra.data.reason, 'not_processed_after_retries');
      const received = (await stack.sandboxCall('GET', '/__sandbox/received?transferId=bounded_429')) as {
        accepted: number;
      };
      assert.equal(received.accepted, 0);
      // Each send is two SUBMITTING events (the attempt, then "not processed"). One send per
      // schedule entry (3: the first, then a re-send after each of the first two checks); the
      // third check finds the schedule spent.
      const submitting = stack.eventsOf('bounded_429').filter((e) => e.data.status === 'SUBMITTING').length;
      assert.equal(submitting, 2 * 3);
    } finally {
      await stack.sandboxCall('DELETE', '/__sandbox/faults?endpoint=directTransfer');
    }
  });
});
