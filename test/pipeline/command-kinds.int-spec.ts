import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { eventProblems, replyProblems } from '#contracts';
import { batchKey, payoutKey, stateEventId } from '#ledger';
import { eventually, startStack, type Stack } from '#test-support';

// Each command kind and each query, end to end: Kafka command -> ledger -> provider sandbox over
// HTTP -> outbox -> Kafka events (or a reply).
describe('every command kind and query, end to end', () => {
  let stack: Stack;
  before(async () => {
    stack = await startStack();
    await stack.registerBeneficiary({ beneId: 'BENE1', bankAccount: '026291800001191', ifsc: 'YESB0000262' });
    await stack.startService();
  });
  after(async () => {
    await stack?.close();
  });

  it('standard transfer to a registered beneficiary', async () => {
    await stack.send({
      type: 'payout.standard_transfer',
      requestId: 'req-std-1',
      data: { transferId: 'std_1', beneId: 'BENE1', amount: '120.50', transferMode: 'banktransfer' },
    });
    const done = await stack.waitForStatus('std_1', 'SUCCESS');
    assert.equal(done.data.amount, '120.50');
    assert.equal(done.data.beneficiary?.beneId, 'BENE1');
    assert.ok(done.data.referenceId, 'the provider reference is carried');
    assert.deepEqual(
      stack.eventsOf('std_1').map((e) => e.data.status),
      ['RECEIVED', 'SUBMITTING', 'SUCCESS'],
    );
  });

  it('direct transfer with an inline beneficiary: account number masked in events', async () => {
    await stack.send({
      type: 'payout.direct_transfer',
      data: {
        transferId: 'dir_1',
        amount: '150',
        beneDetails: {
          name: 'A Person',
          bankAccount: '026291800001191',
          ifsc: 'YESB0000262',
          phone: '9876543210',
        },
      },
    });
    const done = await stack.waitForStatus('dir_1', 'SUCCESS');
    assert.equal(done.data.beneficiary?.bankAccount, 'XXXXXXXXXXX1191');
    assert.equal(done.data.amount, '150.00');
  });

  it('validated UPI payout (v2) with a transfer token', async () => {
    const minted = (await stack.sandboxCall('POST', '/__sandbox/transfer-tokens', {
      transfer_id: 'upi_1',
      vpa: 'success@upi',
    })) as { transfer_token: string };
    await stack.send({
      type: 'payout.validated_upi_payout',
      data: { transferId: 'upi_1', amount: '99.99', transferToken: minted.transfer_token },
    });
    const done = await stack.waitForStatus('upi_1', 'SUCCESS');
    assert.ok(done.data.svcTransferId, 'svc_transfer_id is carried');
  });

  it('card payout', async () => {
    await stack.send({
      type: 'payout.card_payout',
      data: {
        transferId: 'card_1',
        amount: '10.00',
        cardToken: '4718610000000001',
        cardType: 'CREDIT',
        networkType: 'VISA',
      },
    });
    await stack.waitForStatus('card_1', 'SUCCESS');
  });

  it('internal transfer', async () => {
    await stack.send({
      type: 'payout.internal_transfer',
      data: { transferId: 'int_1', amount: '1000.00', rechargeAccount: 'RA0001' },
    });
    await stack.waitForStatus('int_1', 'SUCCESS');
  });

  it('self withdrawal: three a day, the fourth is rejected before the provider is called', async () => {
    // One after another: on different partitions, "the fourth" is whichever the ledger sees fourth.
    for (const n of [1, 2, 3, 4]) {
      await stack.send({ type: 'payout.self_withdrawal', data: { withdrawalId: `wd_${n}`, amount: '5.00' } });
      await stack.waitForStatus(`wd_${n}`, 'RECEIVED');
    }
    for (const n of [1, 2, 3]) await stack.waitForStatus(`wd_${n}`, 'SUCCESS');
    const rejected = await stack.waitForStatus('wd_4', 'REJECTED');
    assert.equal(rejected.data.reason, 'daily_withdrawal_limit_exceeded');
    const received = (await stack.sandboxCall('GET', '/__sandbox/received?transferId=wd_4')) as {
      accepted: number;
    };
    assert.equal(received.accepted, 0, 'the provider never saw the fourth');
  });

  it('batch transfer: per-entry events and a completed event with totals', async () => {
    const entry = (transferId: string, bankAccount: string, ifsc: string) => ({
      transferId,
      amount: '25.00',
      bankAccount,
      ifsc,
      name: 'Batch Person',
      phone: '9876543210',
    });
    await stack.send({
      type: 'payout.batch_transfer',
      data: {
        batchTransferId: 'batch_1',
        batchFormat: 'BANK_ACCOUNT',
        entries: [
          entry('b1_ok_1', '026291800001191', 'YESB0000262'),
          entry('b1_ok_2', '026291800001191', 'YESB0000262'),
          entry('b1_bad', '026291800001190', 'YESB0000262'),
        ],
      },
    });
    const completed = await stack.waitForStatus('batch_1', 'COMPLETED', 30_000);
    assert.deepEqual(completed.data.totals, { entries: 3, succeeded: 2, failed: 1, pending: 0 });
    const items = stack.events.filter((e) => e.type.startsWith('payouts.batch_item.'));
    assert.deepEqual(items.map((e) => `${e.subject}=${e.data.status}`).sort(), [
      'b1_bad=FAILED',
      'b1_ok_1=SUCCESS',
      'b1_ok_2=SUCCESS',
    ]);
    for (const e of items) assert.equal(e.data.beneficiary?.bankAccount?.startsWith('XXXX'), true);
  });

  it('queries: beneficiary id lookup, beneficiary history, SDK token (request/reply)', async () => {
    await stack.query({
      type: 'query.bene_id',
      queryId: 'q1',
      data: { bankAccount: '026291800001191', ifsc: 'YESB0000262' },
    });
    await stack.query({ type: 'query.bene_history', queryId: 'q2', data: { beneId: 'BENE1' } });
    await stack.query({
      type: 'query.sdk_token',
      queryId: 'q3',
      data: {
        appId: 'app-1',
        metadata: { vkycRequestId: 42 },
        authenticatedUser: { identifierType: 'userId', identifierValue: 7 },
      },
    });
    const reply = (id: string) =>
      eventually(() => stack.replies.find((r) => r.queryId === id), { what: `reply ${id}` });
    const [q1, q2, q3] = await Promise.all([reply('q1'), reply('q2'), reply('q3')]);
    assert.equal(q1.ok, true, JSON.stringify(q1.error));
    assert.equal(q1.data?.['beneId'], 'BENE1');
    assert.equal(q2.ok, true, JSON.stringify(q2.error));
    assert.ok(Array.isArray(q2.data?.['transfers']));
    assert.equal(q3.ok, true, JSON.stringify(q3.error));
    const token = q3.data?.['accessToken'];
    assert.equal(typeof token, 'string');
    for (const r of [q1, q2, q3]) assert.equal(replyProblems(r), undefined);
    assert.ok(!stack.logLines.join('\n').includes(String(token)), 'the SDK token is never logged');
  });

  it('every event published matches the published schema; ids are <key>:<version>', () => {
    assert.ok(stack.events.length > 20);
    for (const e of stack.events) {
      assert.equal(eventProblems(e), undefined, `${e.id}: ${eventProblems(e)}`);
    }
    for (const e of stack.events.filter((x) => x.type.startsWith('payouts.payout.'))) {
      assert.equal(e.id, stateEventId(payoutKey(e.data.accountId, e.subject), e.data.version));
    }
    for (const e of stack.events.filter((x) => x.type.startsWith('payouts.batch.'))) {
      assert.equal(e.id, stateEventId(batchKey(e.data.accountId, e.subject), e.data.version));
    }
  });
});
