import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { eventually, startStack, type Stack } from '#test-support';

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

// One consumer group per consumed topic: a process with the intake only and one with the queries
// only each get every partition of their own topic. (In one shared group, kafkajs's leader handed
// command partitions to the queries process, which dropped them, and the queries to nobody.)
describe('intake and queries in separate processes', () => {
  let stack: Stack;
  before(async () => {
    stack = await startStack();
    await stack.startService({ SERVICE_ROLES: 'intake,executor,reconciler,relay' });
    await stack.startService({ SERVICE_ROLES: 'queries' });
  });
  after(async () => {
    await stack?.close();
  });

  it('handles every command and answers every query', async () => {
    const ids = Array.from({ length: 12 }, (_, i) => `apart_${i}`);
    for (const id of ids) await stack.send(direct(id));
    const queries = Array.from({ length: 6 }, (_, i) => `apart_q${i}`);
    for (const queryId of queries) {
      await stack.query({ type: 'query.bene_history', queryId, data: { beneId: 'BENE1' } });
    }
    for (const id of ids) await stack.waitForStatus(id, 'SUCCESS', 30_000);
    await eventually(
      () => (queries.every((q) => stack.replies.some((r) => r.queryId === q)) ? true : undefined),
      { what: 'a reply to every query', timeoutMs: 30_000 },
    );
  });
});
