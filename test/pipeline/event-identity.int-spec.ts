import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { type PayoutEvent } from '#contracts';
import { DEVELOPMENT_ENCRYPTION_KEY } from '#ledger';
import { eventually, startStack, type Stack } from '#test-support';

const SUCCESS = { bankAccount: '026291800001191', ifsc: 'YESB0000262' };
const STAYS_PENDING = { bankAccount: '007711000031', ifsc: 'HDFC0000077' };

const direct = (transferId: string, to: object, extra: object = {}, amount = '10.00') => ({
  type: 'payout.direct_transfer',
  ...extra,
  data: { transferId, amount, beneDetails: { name: 'A Person', phone: '9876543210', ...to } },
});

// An event id stands for one event: unique across accounts and namespaces, and the same content
// whenever it is emitted again (a duplicate command, a retry after a key rotation).
const ACCOUNTS = ['acct_a', 'acct_b'].map((id) => ({
  id,
  client: { clientId: `${id}_client`, clientSecret: `${id}_secret` },
}));

describe('event identity', () => {
  let stack: Stack;
  before(async () => {
    stack = await startStack({
      // Three quick looks, then a long wait: a PENDING payout is rescheduled (the row is written
      // to) without a state change, and stays PENDING for the test.
      // Published rows are kept, so the test can read the keys they were written with.
      env: {
        RECONCILE_SCHEDULE: '200ms,200ms,200ms,60s',
        OUTBOX_RETENTION_HOURS: '72',
        // Two more accounts (a command for an account the service does not have is refused).
        PROVIDER_ACCOUNTS: JSON.stringify(ACCOUNTS.map((a) => ({ accountId: a.id, ...a.client }))),
      },
      sandbox: { batchDelayMs: 100, merchants: ACCOUNTS.map((a) => a.client) },
    });
    await stack.startService();
  });
  after(async () => {
    await stack?.close();
  });

  const byId = (id: string): PayoutEvent[] => stack.events.filter((e) => e.id === id);

  it('two accounts using one transferId: both payouts get their own events, ids and Kafka keys', async () => {
    await stack.sendToPartition(0, [
      { key: 'same_id', value: JSON.stringify(direct('same_id', SUCCESS, { accountId: 'acct_a' })) },
      { key: 'same_id', value: JSON.stringify(direct('same_id', SUCCESS, { accountId: 'acct_b' })) },
    ]);
    const received = await eventually(
      () => {
        const r = stack.events.filter((e) => e.data.id === 'same_id' && e.data.status === 'RECEIVED');
        return r.length >= 2 ? r : undefined;
      },
      { what: 'a RECEIVED event per account' },
    );
    assert.deepEqual(received.map((e) => e.data.accountId).sort(), ['acct_a', 'acct_b']);
    assert.notEqual(received[0]!.id, received[1]!.id, 'distinct event ids');
    assert.deepEqual(received.map((e) => e.id).sort(), [
      'payout/acct_a/same_id:1',
      'payout/acct_b/same_id:1',
    ]);
    const keys = await stack.sql<{ message_key: string }>(
      `SELECT DISTINCT message_key FROM outbox WHERE payload->'data'->>'id' = 'same_id' ORDER BY 1`,
    );
    assert.deepEqual(
      keys.map((k) => k.message_key),
      ['payout/acct_a/same_id', 'payout/acct_b/same_id'],
    );
  });

  it('a duplicate command re-emits the payout’s current event exactly, also after reschedules', async () => {
    const command = direct('stable_p', STAYS_PENDING);
    await stack.send(command);
    const pending = await stack.waitForStatus('stable_p', 'PENDING');
    // The reconciler looked again (and wrote the row) without a state change.
    await eventually(
      async () => {
        const [r] = await stack.sql<{ check_count: number; status: string }>(
          `SELECT check_count, status FROM payout WHERE transfer_id = 'stable_p'`,
        );
        return r && r.check_count >= 3 && r.status === 'PENDING' ? true : undefined;
      },
      { what: 'reconciler checks of the PENDING payout' },
    );
    await stack.send(command);
    const both = await eventually(() => (byId(pending.id).length >= 2 ? byId(pending.id) : undefined), {
      what: 'the re-emitted event',
    });
    assert.deepEqual(both[1], both[0], 'one event id, one content');
  });

  it('a duplicate batch command re-emits the batch’s event exactly, totals included', async () => {
    const entry = (transferId: string) => ({
      transferId,
      amount: '25.00',
      name: 'Batch Person',
      phone: '9876543210',
      ...SUCCESS,
    });
    const command = {
      type: 'payout.batch_transfer',
      data: {
        batchTransferId: 'stable_b',
        batchFormat: 'BANK_ACCOUNT',
        entries: [entry('sb_1'), entry('sb_2')],
      },
    };
    await stack.send(command);
    const completed = await stack.waitForStatus('stable_b', 'COMPLETED');
    assert.deepEqual(completed.data.totals, { entries: 2, succeeded: 2, failed: 0, pending: 0 });
    await stack.send(command);
    const both = await eventually(() => (byId(completed.id).length >= 2 ? byId(completed.id) : undefined), {
      what: 'the re-emitted batch event',
    });
    assert.deepEqual(both[1], both[0], 'one event id, one content');
    assert.ok(completed.id.startsWith('batch/'), completed.id);
  });

  it('after a key rotation a retried identical command is a duplicate, and a different one still a conflict', async () => {
    const command = direct('rot_1', SUCCESS);
    await stack.send(command);
    const done = await stack.waitForStatus('rot_1', 'SUCCESS');
    for (const s of stack.services) await s.close();
    stack.services.length = 0;
    await stack.startService({
      LEDGER_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      LEDGER_ENCRYPTION_KEY_ID: 'rotated-2',
      LEDGER_PREVIOUS_KEYS: `dev-1:${DEVELOPMENT_ENCRYPTION_KEY}`,
    });
    await stack.send(command);
    await stack.send(direct('rot_1', SUCCESS, {}, '99.00'));
    const conflicts = await eventually(
      () => {
        const c = stack.eventsOf('rot_1').filter((e) => e.type === 'payouts.command.conflict');
        return c.length >= 1 && byId(done.id).length >= 2 ? c : undefined;
      },
      { what: 'the duplicate re-emission and the conflict' },
    );
    assert.equal(conflicts.length, 1, 'only the different request is a conflict');
    assert.deepEqual(byId(done.id)[1], done, 'the retry re-emits the current event');
  });
});
