import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { type KafkaMessage, type Producer } from 'kafkajs';
import { TOPICS, topicName, type QueryReply } from '#contracts';
import { eventually, startStack, testKafka, type Stack } from '#test-support';
import { parseExposition, valueOf } from '../observability/prom-text.js';

const ACCOUNT = '026291800001191';
const REMOVE = 'POST /payout/v1/removeBeneficiary';
const SDK_TOKEN = 'POST /verification/oauth/token';

/**
 * Issue 30, defect 3: where a reply may go, and what a reply that cannot go does. Over real
 * Kafka: the queries of one test go to ONE partition of payouts.queries, in order, so a query
 * that stalled its partition would hold back the one after it.
 */
describe('query replies: allowed topics only, dead-lettered when refused or unsendable, side effects once', () => {
  let stack: Stack;
  let producer: Producer;
  const header = (m: KafkaMessage, name: string) => m.headers?.[name]?.toString();
  const dlqOf = (queryId: string) =>
    stack.dlq.find(
      (m) =>
        header(m, 'dlq-original-topic') === topicName(stack.prefix, TOPICS.queries) &&
        String(m.value).includes(`"${queryId}"`),
    );
  const replyOf = (queryId: string) => stack.replies.find((r) => r.queryId === queryId);

  /** Several queries in ONE produce request to partition 0, in this order. */
  async function sendQueries(queries: readonly object[]): Promise<void> {
    await producer.send({
      topic: topicName(stack.prefix, TOPICS.queries),
      messages: queries.map((q) => ({ partition: 0, value: JSON.stringify(q) })),
    });
  }

  async function providerCalls(endpoint: string): Promise<number> {
    const text = await (await fetch(`${stack.services[0]?.url ?? ''}/metrics`)).text();
    const { samples } = parseExposition(text);
    return valueOf(samples, 'payouts_provider_request_duration_seconds_count', { endpoint }) ?? 0;
  }

  const remove = (queryId: string, beneId: string, extra: object = {}) => ({
    type: 'beneficiary.delete',
    queryId,
    data: { beneId },
    ...extra,
  });
  const sdkToken = (queryId: string, requestId: string, vkycRequestId = 101) => ({
    type: 'query.sdk_token',
    queryId,
    requestId,
    data: {
      appId: 'vkyc-app',
      product: 'VKYC',
      metadata: { vkycRequestId },
      authenticatedUser: { identifierType: 'userId', identifierValue: 42 },
    },
  });

  before(async () => {
    stack = await startStack({
      // A reply may go to the default topic or to any topic under `replies.`.
      env: { QUERY_REPLY_TOPICS: `${TOPICS.queryReplies},replies.*` },
    });
    await stack.startService();
    producer = testKafka().producer({ allowAutoTopicCreation: false });
    await producer.connect();
  });
  after(async () => {
    await producer?.disconnect();
    await stack?.close();
  });

  it("a reply naming the service's own topics is dead-lettered, nothing is asked of the provider, and the partition goes on", async () => {
    await stack.registerBeneficiary({ beneId: 'BENEOWN', bankAccount: ACCOUNT, ifsc: 'YESB0000262' });
    await sendQueries([
      remove('qr-events', 'BENEOWN', { replyTo: TOPICS.events }),
      remove('qr-commands', 'BENEOWN', { replyTo: TOPICS.commands }),
      remove('qr-dlq', 'BENEOWN', { replyTo: TOPICS.commandsDlq }),
      { type: 'query.beneficiary', queryId: 'qr-after-own', data: { beneId: 'BENEOWN' } },
    ]);
    const after = await eventually(() => replyOf('qr-after-own'), { what: 'the query after them' });
    assert.deepEqual([after.ok, after.data?.['result']], [true, 'found'], 'BENEOWN was never deleted');
    for (const queryId of ['qr-events', 'qr-commands', 'qr-dlq']) {
      const d = await eventually(() => dlqOf(queryId), { what: `${queryId} dead-lettered` });
      assert.equal(header(d, 'dlq-reason'), 'reply_topic_refused', queryId);
      assert.match(header(d, 'dlq-detail') ?? '', /not an allowed reply topic/);
      assert.equal(replyOf(queryId), undefined, `${queryId} has no reply on the reply topic`);
    }
    assert.equal(
      stack.events.some((e) => JSON.stringify(e).includes('qr-events')),
      false,
      'nothing on payouts.events',
    );
    assert.equal(await providerCalls(REMOVE), 0, 'the provider was not asked to delete anything');
    const { samples } = parseExposition(
      await (await fetch(`${stack.services[0]?.url ?? ''}/metrics`)).text(),
    );
    const counted = valueOf(samples, 'payouts_commands_dead_lettered_total', {
      reason: 'reply_topic_refused',
    });
    assert.equal(counted, 3, 'counted with the dead letters (one alert: DeadLettersIncreasing)');
  });

  it('a reply topic that is no topic name is dead-lettered and committed: the partition goes on', async () => {
    await sendQueries([
      remove('qr-bad-name', 'BENENONE', { replyTo: 'replies.no such topic!' }),
      { type: 'query.beneficiary', queryId: 'qr-after-bad', data: { beneId: 'BENEOWN' } },
    ]);
    await eventually(() => replyOf('qr-after-bad'), { what: 'the query after it' });
    const d = await eventually(() => dlqOf('qr-bad-name'), { what: 'qr-bad-name dead-lettered' });
    assert.equal(header(d, 'dlq-reason'), 'reply_topic_refused');
  });

  it('a reply its allowed topic cannot take is dead-lettered; asked again, the recorded answer comes back and the provider is not called again', async () => {
    await stack.registerBeneficiary({ beneId: 'BENEGONE', bankAccount: ACCOUNT, ifsc: 'YESB0000262' });
    // Allowed (replies.*), but no such topic exists: the send fails.
    await sendQueries([
      remove('qr-missing', 'BENEGONE', { replyTo: 'replies.missing', requestId: 'rq-gone' }),
    ]);
    const d = await eventually(() => dlqOf('qr-missing'), {
      what: 'qr-missing dead-lettered',
      timeoutMs: 60_000,
    });
    assert.equal(header(d, 'dlq-reason'), 'reply_unsendable');
    assert.equal(await providerCalls(REMOVE), 1);
    // The partition went on.
    await sendQueries([remove('qr-again', 'BENEGONE', { requestId: 'rq-gone' })]);
    const again = await eventually(() => replyOf('qr-again'), { what: 'the same request asked again' });
    assert.deepEqual(
      [again.ok, again.data?.['result']],
      [true, 'deleted'],
      'the recorded answer, not "absent"',
    );
    assert.equal(await providerCalls(REMOVE), 1, 'the provider was called once');
    // Still one dead letter for it: the message was committed, not redelivered.
    assert.equal(stack.dlq.filter((m) => String(m.value).includes('"qr-missing"')).length, 1);
  });

  it('an SDK token is minted once per request id: a repeat gets the same token, stored encrypted; another request with that id is refused', async () => {
    await sendQueries([sdkToken('qr-sdk-1', 'rq-sdk'), sdkToken('qr-sdk-2', 'rq-sdk')]);
    const first = await eventually(() => replyOf('qr-sdk-1'), { what: 'the first reply' });
    const second = await eventually(() => replyOf('qr-sdk-2'), { what: 'the second reply' });
    assert.equal(first.ok, true, JSON.stringify(first.error));
    const token = String(first.data?.['accessToken']);
    assert.ok(token.length > 20);
    assert.equal(second.data?.['accessToken'], token);
    assert.equal(await providerCalls(SDK_TOKEN), 1);
    const stored = await stack.sql('SELECT * FROM query_answer');
    assert.ok(stored.length >= 1);
    assert.doesNotMatch(JSON.stringify(stored), new RegExp(token.slice(-16)), 'no token in clear');
    // The same request id for another request: refused, nothing minted.
    await sendQueries([sdkToken('qr-sdk-3', 'rq-sdk', 202)]);
    const other: QueryReply = await eventually(() => replyOf('qr-sdk-3'), { what: 'the third reply' });
    assert.deepEqual([other.ok, other.error?.code], [false, 'request_id_reused']);
    assert.equal(await providerCalls(SDK_TOKEN), 1);
  });
});
