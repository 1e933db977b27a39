import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { postV2, signV2, startStack, type Stack } from '#test-support';
import { type ServiceApp } from '../../apps/payout-service/src/bootstrap.js';
import { ACCOUNT, directTransfer, keptWebhooks, statusCalls, statusesOf } from './helpers.js';

const PENDING_THEN_SUCCESS = { bankAccount: '00224412311300', ifsc: 'YESB0000001' };
const SUCCESS = { bankAccount: '026291800001191', ifsc: 'YESB0000262' };

// Webhooks that are only hints: the polling still settles what no webhook reported, and a
// webhook that does not agree with the row (or names a batch entry) makes the service ask the
// provider now instead of at the next scheduled check (5 s away here).
describe('provider webhooks that ask for a check', () => {
  let stack: Stack;
  let service: ServiceApp;
  let v2: string;
  const secret = () => stack.sandbox.clientSecret;

  before(async () => {
    stack = await startStack({
      env: {
        SERVICE_ROLES: 'intake,executor,reconciler,relay,webhooks',
        WEBHOOKS_PORT: '0',
        RECONCILE_SCHEDULE: '5s,5s,5s,5s',
        REVERSAL_WATCH_SCHEDULE: 'off',
        WEBHOOKS_POLL_MS: '200',
      },
      sandbox: { pendingDelayMs: 800, batchDelayMs: 300 },
    });
    service = await stack.startService();
    v2 = `${service.webhooksUrl}/webhooks/v2/${ACCOUNT}`;
  });
  after(async () => {
    await stack?.close();
  });

  it('a lost webhook is covered by polling', async () => {
    const calls = await statusCalls(service.url);
    await stack.send(directTransfer('whr_lost', '10.00', PENDING_THEN_SUCCESS));
    await stack.waitForStatus('whr_lost', 'PENDING');
    // No webhook comes: the scheduled status check settles it.
    const done = await stack.waitForStatus('whr_lost', 'SUCCESS', 10_000);
    assert.ok(done.data.utr, "the provider's UTR, from the status answer");
    assert.ok((await statusCalls(service.url)) > calls);
    assert.deepEqual(statusesOf(stack, 'whr_lost'), ['RECEIVED', 'SUBMITTING', 'PENDING', 'SUCCESS']);
  });

  it("a webhook whose amount disagrees is not applied: the payout is checked now and the provider's answer wins", async () => {
    await stack.send(directTransfer('whr_amount', '10.00', PENDING_THEN_SUCCESS));
    await stack.waitForStatus('whr_amount', 'PENDING');
    await new Promise((r) => setTimeout(r, 1_000)); // the sandbox settles it after 800 ms
    const calls = await statusCalls(service.url);
    const signed = signV2(
      {
        type: 'TRANSFER_SUCCESS',
        data: { transfer_id: 'whr_amount', transfer_amount: 99, transfer_utr: 'NOT_THE_UTR' },
      },
      secret(),
    );
    assert.equal(await postV2(v2, signed), 200);
    // Well before the scheduled check (5 s after PENDING): the webhook asked for it.
    const done = await stack.waitForStatus('whr_amount', 'SUCCESS', 3_000);
    assert.notEqual(done.data.utr, 'NOT_THE_UTR');
    assert.ok((await statusCalls(service.url)) > calls, 'a status call settled it');
    assert.deepEqual(await keptWebhooks(stack, 'whr_amount'), [
      { state: 'done', outcome: 'recheck', event: 'TRANSFER_SUCCESS' },
    ]);
  });

  it('a webhook for a batch entry has the batch checked now', async () => {
    await stack.send({
      type: 'payout.batch_transfer',
      data: {
        batchTransferId: 'whr_batch',
        batchFormat: 'BANK_ACCOUNT',
        entries: [
          { transferId: 'whr_b1', amount: '5.00', name: 'Batch Person', phone: '9876543210', ...SUCCESS },
          {
            transferId: 'whr_b2',
            amount: '6.00',
            name: 'Batch Person',
            phone: '9876543210',
            ...SUCCESS,
          },
        ],
      },
    });
    await stack.waitForStatus('whr_batch', 'PROCESSING');
    await new Promise((r) => setTimeout(r, 500)); // past the sandbox's batch processing time
    const signed = signV2(
      { type: 'TRANSFER_SUCCESS', data: { transfer_id: 'whr_b2', transfer_utr: 'UB2' } },
      secret(),
    );
    assert.equal(await postV2(v2, signed), 200);
    const completed = await stack.waitForStatus('whr_batch', 'COMPLETED', 3_000);
    assert.deepEqual(completed.data.totals, { entries: 2, succeeded: 2, failed: 0, pending: 0 });
    assert.deepEqual(await keptWebhooks(stack, 'whr_b2'), [
      { state: 'done', outcome: 'recheck_batch', event: 'TRANSFER_SUCCESS' },
    ]);
  });
});
