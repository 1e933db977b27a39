import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { Kafka, logLevel } from 'kafkajs';
import { ensureTopics } from '#messaging';
import { BrokerUnavailableError } from '#outbox';
import { eventually, testKafka } from '#test-support';
import { event, OutboxHarness, type Received } from './harness.js';

const MISSING = 'payouts.not-yet';

interface RowState {
  state: string;
  attempts: number;
  last_error: string | null;
}

describe('OutboxRelay with poisoned rows', () => {
  let h: OutboxHarness;
  let got: Received[];
  before(async () => {
    h = await OutboxHarness.create();
    got = await h.consume();
  });
  after(async () => {
    await h.close();
  });

  const seen = (key: string) => got.filter((m) => m.key === key).map((m) => m.eventId);
  const row = async (eventId: string): Promise<RowState | undefined> => {
    const { rows } = await h.pool.query<RowState>(
      'SELECT state, attempts, last_error FROM outbox WHERE event_id = $1 ORDER BY id DESC LIMIT 1',
      [eventId],
    );
    return rows[0];
  };
  const big = (key: string) =>
    event(key, 1, {
      payload: { id: `${key}:1`, subject: key, data: { version: 1, blob: 'x'.repeat(1_200_000) } },
    });

  for (const variant of ['refused locally', 'refused by the broker'] as const) {
    it(`a message over the size limit (${variant}) dies after max attempts and blocks only its key`, async () => {
      const k = variant === 'refused locally' ? 'big-local' : 'big-broker';
      // Lifting the local guard lets the 1.2 MB message reach the broker, which refuses it
      // (message.max.bytes ~1 MB) inside a batch with good rows.
      const relay = h.relay(variant === 'refused locally' ? {} : { maxMessageBytes: 10_000_000 });
      await relay.start();
      try {
        await h.enqueueTx([big(k), event(k, 2), event(`${k}-other`, 1)]);
        await h.enqueueTx([event(`${k}-other`, 2)]);
        const dead = await eventually(
          async () => {
            const r = await row(`${k}:1`);
            return r?.state === 'dead' ? r : undefined;
          },
          { what: 'the big row to die' },
        );
        assert.equal(dead.attempts, 3);
        assert.match(
          dead.last_error ?? '',
          variant === 'refused locally' ? /exceeds OUTBOX_MAX_MESSAGE_BYTES/ : /TOO_LARGE/,
        );
        await eventually(() => (seen(`${k}-other`).length === 2 ? true : undefined), {
          what: 'the other key',
        });
        await sleep(300);
        assert.deepEqual(
          seen(`${k}-other`),
          [`${k}-other:1`, `${k}-other:2`],
          'the other key flows, exactly once',
        );
        assert.deepEqual(seen(k), [], 'the later row of the poisoned key waits');
        assert.equal((await row(`${k}:2`))?.state, 'pending');
      } finally {
        await relay.stop();
      }
    });
  }

  it('a row for a missing topic dies, and flows (before its key’s later rows) once the topic exists and it is replayed', async () => {
    const relay = h.relay();
    await relay.start();
    try {
      await h.enqueueTx([event('mt', 1, { topic: MISSING }), event('mt', 2), event('mt-other', 1)]);
      await eventually(async () => ((await row('mt:1'))?.state === 'dead' ? true : undefined), {
        what: 'the row to die',
      });
      assert.match((await row('mt:1'))?.last_error ?? '', /UNKNOWN_TOPIC_OR_PARTITION/);
      await eventually(() => (seen('mt-other').length === 1 ? true : undefined), { what: 'the other key' });
      assert.deepEqual(seen('mt'), []);

      await ensureTopics(testKafka(), [{ topic: h.topic(MISSING), numPartitions: 1 }]);
      const onMissing = await h.consume(MISSING);
      assert.equal(await relay.replayDead('mt:1'), 'replayed');
      await eventually(() => (onMissing.length === 1 && seen('mt').length === 1 ? true : undefined), {
        what: 'the replayed row, then the next one',
      });
      assert.equal(onMissing[0]?.eventId, 'mt:1');
      assert.deepEqual(seen('mt'), ['mt:2']);
      const { rows } = await h.pool.query<{ event_id: string; published_at: Date }>(
        `SELECT event_id, published_at FROM outbox WHERE message_key = 'mt' ORDER BY id`,
      );
      assert.ok(rows[0]!.published_at <= rows[1]!.published_at, 'mt:1 was published before mt:2');
      assert.equal(await relay.replayDead('mt:1'), 'not-found', 'nothing dead left to replay');
    } finally {
      await relay.stop();
    }
  });

  it('an unreachable broker rolls the round back and charges no row an attempt', async () => {
    const nowhere = new Kafka({
      clientId: 'nowhere',
      brokers: ['127.0.0.1:1'],
      logLevel: logLevel.NOTHING,
      retry: { retries: 0 },
    });
    const relay = h.relay({}, undefined, nowhere);
    await h.enqueueTx([event('unreachable', 1)]);
    await assert.rejects(relay.round(), BrokerUnavailableError);
    assert.deepEqual(await row('unreachable:1'), { state: 'pending', attempts: 0, last_error: null });
    await relay.stop();
    await h.pool.query(`DELETE FROM outbox WHERE message_key = 'unreachable'`);
  });

  it('nothing of a poisoned key reached the events topic', () => {
    assert.ok(got.every((m) => m.eventId !== '' && m.key !== ''));
    assert.deepEqual(
      got.filter((m) => m.key === 'big-local' || m.key === 'big-broker'),
      [],
    );
    assert.ok(got.every((m) => m.headers['ce_type'] === 'payout.status'));
  });
});
