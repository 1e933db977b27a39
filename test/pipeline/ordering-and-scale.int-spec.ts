import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { type PayoutEvent } from '#contracts';
import { eventually, startStack, testKafka, type Stack } from '#test-support';

const INTERNAL = 140;
const PENDING_THEN_SUCCESS = 60;

interface Received {
  initiations: Array<{ endpoint: string; transferId: string; accepted: boolean }>;
}

// Invariants 1-3 under load, with two instances in one consumer group: every transfer ends in
// exactly one terminal state, the provider accepts each transferId once, and each transfer's
// events arrive in version order.
describe('ordering and scale: two instances, 200 transfers', () => {
  let stack: Stack;
  const ids = [
    ...Array.from({ length: INTERNAL }, (_, i) => `scale_int_${i}`),
    ...Array.from({ length: PENDING_THEN_SUCCESS }, (_, i) => `scale_pend_${i}`),
  ];

  before(async () => {
    stack = await startStack();
    await stack.sandboxCall('POST', '/__sandbox/balance', { balance: '10000000.00' });
    await stack.startService();
    await stack.startService();
    await Promise.all(
      ids.map((transferId) =>
        stack.send(
          transferId.startsWith('scale_int_')
            ? {
                type: 'payout.internal_transfer',
                data: { transferId, amount: '10.00', rechargeAccount: 'RA0001' },
              }
            : {
                type: 'payout.direct_transfer',
                // This account answers PENDING, then SUCCESS: four states, four versions.
                data: {
                  transferId,
                  amount: '10.00',
                  beneDetails: {
                    name: 'A Person',
                    bankAccount: '00224412311301',
                    ifsc: 'YESB0000001',
                    phone: '9876543210',
                  },
                },
              },
        ),
      ),
    );
  });
  after(async () => {
    await stack?.close();
  });

  it('both instances consume from the one group', async () => {
    const admin = testKafka().admin();
    await admin.connect();
    try {
      const groupId = `${stack.env['KAFKA_CLIENT_ID']}.intake`;
      const members = await eventually(
        async () => {
          const { groups } = await admin.describeGroups([groupId]);
          const g = groups[0];
          return g?.state === 'Stable' && g.members.length === 2 ? g.members : undefined;
        },
        { what: 'a stable group of two' },
      );
      assert.equal(members.length, 2);
    } finally {
      await admin.disconnect();
    }
  });

  it('every transfer reaches SUCCESS, and nothing else terminal', async () => {
    for (const id of ids) await stack.waitForStatus(id, 'SUCCESS', 45_000);
    const rows = await stack.sql<{ status: string; n: number }>(
      'SELECT status, count(*)::int AS n FROM payout GROUP BY status',
    );
    assert.deepEqual(rows, [{ status: 'SUCCESS', n: ids.length }]);
    for (const id of ids) {
      const terminal = new Set(
        stack
          .eventsOf(id)
          .filter((e) => ['SUCCESS', 'FAILED', 'REJECTED'].includes(e.data.status))
          .map((e) => e.id),
      );
      assert.equal(terminal.size, 1, `${id} has one terminal event`);
    }
  });

  it('the provider accepted every transferId exactly once, and no other', async () => {
    const { initiations } = (await stack.sandboxCall('GET', '/__sandbox/received')) as Received;
    const accepted = new Map<string, number>();
    for (const i of initiations.filter((x) => x.accepted))
      accepted.set(i.transferId, (accepted.get(i.transferId) ?? 0) + 1);
    assert.deepEqual([...accepted.keys()].sort(), [...ids].sort(), 'no transferId missing, none invented');
    const twice = [...accepted].filter(([, n]) => n !== 1);
    assert.deepEqual(twice, [], 'no transferId accepted twice');
  });

  it('the events of each transfer arrive in version order, under ids <transferId>:<version>', () => {
    const bySubject = new Map<string, PayoutEvent[]>();
    for (const e of stack.events) {
      if (!e.type.startsWith('payouts.payout.')) continue;
      assert.equal(e.id, `${e.subject}:${e.data.version}`);
      bySubject.set(e.subject, [...(bySubject.get(e.subject) ?? []), e]);
    }
    assert.equal(bySubject.size, ids.length);
    for (const [subject, events] of bySubject) {
      // At-least-once: the same event may come again right after itself, never out of order.
      const distinct = events.filter((e, i) => i === 0 || e.id !== events[i - 1]?.id);
      const versions = distinct.map((e) => e.data.version);
      for (let i = 1; i < versions.length; i++) {
        assert.ok((versions[i] ?? 0) > (versions[i - 1] ?? 0), `${subject}: versions ${versions.join(',')}`);
      }
      const expected = subject.startsWith('scale_pend_')
        ? ['RECEIVED', 'SUBMITTING', 'PENDING', 'SUCCESS']
        : ['RECEIVED', 'SUBMITTING', 'SUCCESS'];
      assert.deepEqual(
        distinct.map((e) => e.data.status),
        expected,
        subject,
      );
    }
  });
});
