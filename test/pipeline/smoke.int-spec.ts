import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startStack, type Stack } from '#test-support';

describe('pipeline smoke', () => {
  let stack: Stack;
  before(async () => {
    stack = await startStack();
    await stack.startService();
  });
  after(async () => {
    await stack?.close();
  });

  it('a direct transfer goes from command to SUCCESS event', async () => {
    await stack.send({
      type: 'payout.direct_transfer',
      data: {
        transferId: 'smoke_1',
        amount: '150.00',
        beneDetails: { name: 'A Person', bankAccount: '026291800001191', ifsc: 'YESB0000262', phone: '9876543210' },
      },
    });
    const done = await stack.waitForStatus('smoke_1', 'SUCCESS');
    assert.equal(done.data.amount, '150.00');
    console.log(stack.eventsOf('smoke_1').map((e) => `${e.id} ${e.type}`));
  });
});
