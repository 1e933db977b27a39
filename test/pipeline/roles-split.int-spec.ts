import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startStack, type Stack } from '#test-support';

const direct = (transferId: string) => ({
  type: 'payout.direct_transfer',
  data: {
    transferId,
    amount: '10.00',
    beneDetails: { name: 'A Person', bankAccount: '026291800001191', ifsc: 'YESB0000262' },
  },
});

// Roles in separate processes (one image, SERVICE_ROLES): the intake cannot wake an executor in
// another process directly. Postgres tells it (LISTEN payout_received), so a payout does not wait
// for the executor's next poll, here a minute away.
describe('roles split over two processes', () => {
  let stack: Stack;
  before(async () => {
    stack = await startStack({ env: { EXECUTOR_IDLE_POLL_MS: '60000' } });
    await stack.startService({ SERVICE_ROLES: 'intake,relay,queries' });
    await stack.startService({ SERVICE_ROLES: 'executor,reconciler' });
  });
  after(async () => {
    await stack?.close();
  });

  it('an executor without the intake starts on a new payout at once, not at its next poll', async () => {
    // Past the executors' start-up claims: from here only a notification can wake them.
    await new Promise((r) => setTimeout(r, 500));
    const t0 = Date.now();
    await stack.send(direct('split_1'));
    await stack.waitForStatus('split_1', 'SUCCESS', 30_000);
    const took = Date.now() - t0;
    assert.ok(took < 20_000, `settled in ${took} ms with a 60 s executor poll`);
    await stack.send(direct('split_2'));
    await stack.waitForStatus('split_2', 'SUCCESS', 30_000);
  });
});
