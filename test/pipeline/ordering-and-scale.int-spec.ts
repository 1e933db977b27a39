import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createSecretKey } from 'node:crypto';
import pg from 'pg';
import { type KafkaMessage } from 'kafkajs';
import { Registry } from 'prom-client';
import { type PayoutEvent } from '#contracts';
import {
  BatchRepository,
  DeadLetterRepository,
  HistoryRepository,
  PayoutLedger,
  PayoutRepository,
  payoutKey,
  payoutStateEvent,
  SecretsCipher,
  stateEventId,
  WithdrawalQuotaRepository,
} from '#ledger';
import { OutboxRepository } from '#outbox';
import { inTransaction } from '#database';
import { PayoutMoves } from '../../libs/ledger/src/payout-moves.repository.js';
import { IntakeService, type OutboxWriter, PipelineMetrics } from '#pipeline';
import {
  capturingLogger,
  createTestDatabase,
  eventually,
  startStack,
  testKafka,
  type Stack,
} from '#test-support';

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

  it('the events of each transfer arrive in version order, under ids payout/<accountId>/<transferId>:<version>', () => {
    const bySubject = new Map<string, PayoutEvent[]>();
    for (const e of stack.events) {
      if (!e.type.startsWith('payouts.payout.')) continue;
      assert.equal(e.id, stateEventId(payoutKey(e.data.accountId, e.subject), e.data.version));
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

// A repeated command re-emits the payout's current state. If the intake reads that state while
// another transaction changes it, the older state must not be published after the newer one.
// The intake is paused between reading the row and writing its events, deterministically.
describe('ordering: a repeat racing a state change', () => {
  it('never re-emits an older state after a newer one', async () => {
    const db = await createTestDatabase();
    const pool = new pg.Pool({ connectionString: db.url, max: 4 });
    try {
      const payouts = new PayoutRepository();
      const moves = new PayoutMoves();
      const outbox = new OutboxRepository();
      let pauseNext = false;
      let reached!: () => void;
      let open!: () => void;
      const atGate = new Promise<void>((r) => (reached = r));
      const opened = new Promise<void>((r) => (open = r));
      const pausing: OutboxWriter = {
        async enqueue(c, rows) {
          if (pauseNext) {
            pauseNext = false;
            reached();
            await opened;
          }
          return outbox.enqueue(c, rows);
        },
      };
      const intake = new IntakeService({
        payouts,
        ledger: new PayoutLedger({
          pool,
          outbox: pausing,
          history: new HistoryRepository(),
          logger: capturingLogger('warn').logger,
        }),
        batchLedger: { admit: () => Promise.resolve(undefined) },
        batches: new BatchRepository(),
        quota: new WithdrawalQuotaRepository(),
        deadLetters: new DeadLetterRepository(),
        outbox: pausing,
        dlq: { publish: () => Promise.resolve() },
        cipher: new SecretsCipher('k1', Buffer.alloc(32, 7)),
        metrics: new PipelineMetrics(new Registry()),
        logger: capturingLogger('warn').logger,
        defaultAccountId: 'acc',
        knownAccounts: new Set(['acc']),
        deadLetterKey: createSecretKey(Buffer.alloc(32, 9)),
      });
      const command = {
        type: 'payout.internal_transfer',
        data: { transferId: 'race_1', amount: '10.00', rechargeAccount: 'RA0001' },
      };
      const message = (offset: number): KafkaMessage => ({
        key: Buffer.from('race_1'),
        value: Buffer.from(JSON.stringify(command)),
        offset: String(offset),
        timestamp: '0',
        attributes: 0,
        headers: {},
      });
      await intake.ingest('commands', 0, [message(0)]);
      // The RECEIVED event has gone out (else a repeat of it would be a pending duplicate).
      await pool.query(`UPDATE outbox SET state = 'published', published_at = now()`);

      pauseNext = true;
      const repeat = intake.ingest('commands', 0, [message(1)]);
      await atGate;
      // Meanwhile the executor moves the payout on and writes its event, in its own transaction.
      const executor = inTransaction(pool, async (c) => {
        const row = await payouts.findOne(c, 'acc', 'race_1');
        assert.ok(row);
        const next = await moves.transition(c, row, 'SUBMITTING', {}, false);
        assert.ok(next);
        await outbox.enqueue(c, [payoutStateEvent(next)]);
      });
      // Either the executor gets through, or it waits for the intake's transaction.
      const lockWaiter = async () => {
        const { rows } = await pool.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
        );
        return (rows[0]?.n ?? 0) > 0 ? true : undefined;
      };
      await Promise.race([executor, eventually(lockWaiter, { what: 'executor done or waiting' })]);
      open();
      await repeat;
      await executor;

      const { rows } = await pool.query<{ event_id: string }>(
        `SELECT event_id FROM outbox WHERE message_key = $1 ORDER BY id`,
        [payoutKey('acc', 'race_1')],
      );
      const versions = rows.map((r) => Number(r.event_id.split(':')[1]));
      assert.deepEqual(
        versions,
        [...versions].sort((a, b) => a - b),
        `outbox order: ${rows.map((r) => r.event_id).join(', ')}`,
      );
      assert.equal(versions.at(-1), 2);
    } finally {
      await pool.end();
      await db.drop();
    }
  });
});
