import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { payoutKey, stateEventId } from '#ledger';
import { eventually, startStack, type Stack } from '#test-support';

// Invariant 2 and intake rule 1: a command delivered again, in any way Kafka can deliver it,
// never reaches the provider twice; a different request under the same id is a conflict and the
// first request stands.
describe('idempotency of commands', () => {
  let stack: Stack;
  before(async () => {
    stack = await startStack();
    await stack.registerBeneficiary({ beneId: 'BENE1', bankAccount: '026291800001191', ifsc: 'YESB0000262' });
    await stack.startService();
  });
  after(async () => {
    await stack?.close();
  });

  const transfer = (transferId: string, amount = '100.00') => ({
    type: 'payout.standard_transfer',
    data: { transferId, beneId: 'BENE1', amount, transferMode: 'banktransfer' },
  });
  const acceptedAtProvider = async (id: string) =>
    ((await stack.sandboxCall('GET', `/__sandbox/received?transferId=${id}`)) as { accepted: number })
      .accepted;
  const ledgerRows = (id: string) =>
    stack.sql<{ status: string; amount: string; version: number; attempt: number }>(
      'SELECT status, amount::text AS amount, version, attempt FROM payout WHERE transfer_id = $1',
      [id],
    );
  const statusesOf = (id: string) => [...new Set(stack.eventsOf(id).map((e) => e.data.status))];

  /** Every event of a payout carries the id payout/<accountId>/<transferId>:<version>, and one id always means one content. */
  function assertStableIds(id: string): void {
    const byId = new Map<string, string>();
    for (const e of stack.eventsOf(id).filter((x) => x.type.startsWith('payouts.payout.'))) {
      assert.equal(e.id, stateEventId(payoutKey(e.data.accountId, id), e.data.version));
      const seen = byId.get(e.id);
      if (seen) assert.equal(seen, e.data.status, `${e.id} means one state`);
      byId.set(e.id, e.data.status);
    }
  }

  it('the same command N times in ONE Kafka batch: one initiation, one ledger row', async () => {
    const value = JSON.stringify(transfer('dup_batch'));
    await stack.sendToPartition(
      0,
      Array.from({ length: 5 }, () => ({ key: 'dup_batch', value })),
    );
    await stack.waitForStatus('dup_batch', 'SUCCESS');
    assert.equal(await acceptedAtProvider('dup_batch'), 1);
    const rows = await ledgerRows('dup_batch');
    assert.equal(rows.length, 1);
    assert.equal(rows[0]?.status, 'SUCCESS');
    assert.equal(rows[0]?.attempt, 1, 'never re-sent');
    assert.deepEqual(statusesOf('dup_batch'), ['RECEIVED', 'SUBMITTING', 'SUCCESS']);
    assert.equal(
      stack.events.filter((e) => e.subject === 'dup_batch' && e.type === 'payouts.command.conflict').length,
      0,
    );
    assertStableIds('dup_batch');
  });

  it('the same command N times across batches, while it is in flight: one initiation', async () => {
    const value = JSON.stringify(transfer('dup_across'));
    await stack.sendToPartition(2, [{ key: 'dup_across', value }]);
    await stack.waitForStatus('dup_across', 'RECEIVED');
    // Separate produce requests on one partition: later fetches, later batches.
    for (let i = 0; i < 4; i++) await stack.sendToPartition(2, [{ key: 'dup_across', value }]);
    // Behind the repeats on the same partition: once it is in, every repeat has been ingested.
    await stack.sendToPartition(2, [
      { key: 'dup_across_after', value: JSON.stringify(transfer('dup_across_after')) },
    ]);
    await stack.waitForStatus('dup_across_after', 'RECEIVED');
    await stack.waitForStatus('dup_across', 'SUCCESS');
    assert.equal(await acceptedAtProvider('dup_across'), 1);
    const rows = await ledgerRows('dup_across');
    assert.equal(rows.length, 1);
    assert.equal(rows[0]?.status, 'SUCCESS');
    assert.equal(rows[0]?.attempt, 1);
    for (const s of statusesOf('dup_across')) assert.ok(['RECEIVED', 'SUBMITTING', 'SUCCESS'].includes(s), s);
    assertStableIds('dup_across');
  });

  it('a repeat after the payout is terminal re-emits the current state event under the same id', async () => {
    await stack.send(transfer('dup_terminal', '42.5'));
    const done = await stack.waitForStatus('dup_terminal', 'SUCCESS');
    const before = stack.eventsOf('dup_terminal').length;
    // "42.50" is the same amount as "42.5": the same request, not a conflict.
    await stack.send(transfer('dup_terminal', '42.50'));
    const again = await eventually(
      () =>
        stack
          .eventsOf('dup_terminal')
          .slice(before)
          .find((e) => e.data.status === 'SUCCESS'),
      { what: 'the re-emitted SUCCESS' },
    );
    assert.equal(again.id, done.id);
    assert.equal(again.id, stateEventId(payoutKey('default', 'dup_terminal'), done.data.version));
    assert.deepEqual(again, done, 'the same event: one id, one content');
    assert.equal(await acceptedAtProvider('dup_terminal'), 1);
    assert.equal(
      stack.eventsOf('dup_terminal').filter((e) => e.type === 'payouts.command.conflict').length,
      0,
    );
  });

  it('a conflicting repeat (same id, other amount) across batches: one conflict event, the first request stands', async () => {
    await stack.send(transfer('conflict_1', '100.00'));
    await stack.waitForStatus('conflict_1', 'RECEIVED');
    await stack.send(transfer('conflict_1', '250.00'));
    const conflict = await eventually(
      () => stack.eventsOf('conflict_1').find((e) => e.type === 'payouts.command.conflict'),
      { what: 'the conflict event' },
    );
    assert.equal(conflict.data.reason, 'idempotency_conflict');
    const done = await stack.waitForStatus('conflict_1', 'SUCCESS');
    assert.equal(done.data.amount, '100.00', 'the first amount stands');
    assert.equal(stack.eventsOf('conflict_1').filter((e) => e.type === 'payouts.command.conflict').length, 1);
    assert.equal(await acceptedAtProvider('conflict_1'), 1);
    const rows = await ledgerRows('conflict_1');
    assert.deepEqual(
      rows.map((r) => [r.status, r.amount]),
      [['SUCCESS', '100.00']],
    );
  });

  it('a conflicting repeat inside ONE Kafka batch: one conflict event, the first request stands', async () => {
    await stack.sendToPartition(1, [
      { key: 'conflict_2', value: JSON.stringify(transfer('conflict_2', '10.00')) },
      { key: 'conflict_2', value: JSON.stringify(transfer('conflict_2', '20.00')) },
      { key: 'conflict_2', value: JSON.stringify(transfer('conflict_2', '10')) },
    ]);
    const done = await stack.waitForStatus('conflict_2', 'SUCCESS');
    assert.equal(done.data.amount, '10.00');
    await eventually(() => stack.eventsOf('conflict_2').find((e) => e.type === 'payouts.command.conflict'), {
      what: 'the conflict event',
    });
    const conflicts = stack.eventsOf('conflict_2').filter((e) => e.type === 'payouts.command.conflict');
    assert.equal(conflicts.length, 1);
    assert.equal(conflicts[0]?.data.reason, 'idempotency_conflict');
    assert.equal(await acceptedAtProvider('conflict_2'), 1);
    assert.deepEqual(
      (await ledgerRows('conflict_2')).map((r) => [r.status, r.amount]),
      [['SUCCESS', '10.00']],
    );
  });

  // The provider does not deduplicate internal transfers by transferId, but getTransferStatus
  // knows them. The lost answer makes the payout UNKNOWN and the status check settles it: no
  // re-send (it would be a second transfer), no person needed.
  it('an internal transfer whose answer was lost is applied once', async () => {
    // The provider applies it and resets the connection: the executor cannot know it was paid.
    await stack.sandboxCall('POST', '/__sandbox/faults', {
      endpoint: 'internalTransfer',
      loseAnswer: 'reset',
      times: 1,
    });
    await stack.send({
      type: 'payout.internal_transfer',
      data: { transferId: 'lost_int_1', amount: '10.00', rechargeAccount: 'RA0001' },
    });
    const settled = await eventually(
      () =>
        stack
          .eventsOf('lost_int_1')
          .find((e) => ['SUCCESS', 'FAILED', 'REQUIRES_ATTENTION'].includes(e.data.status)),
      { timeoutMs: 20_000, what: 'lost_int_1 settled' },
    );
    assert.equal(
      await acceptedAtProvider('lost_int_1'),
      1,
      `applied once (${stack
        .eventsOf('lost_int_1')
        .map((e) => e.data.status + ':' + String(e.data.reason))
        .join(', ')}; ${settled.data.status})`,
    );
    assert.equal(settled.data.status, 'SUCCESS', 'settled by its status');
  });
});
