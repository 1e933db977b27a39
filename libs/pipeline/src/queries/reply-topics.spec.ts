import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseReplyTopics, replyTopicRefusal } from './reply-topics.js';

describe('QUERY_REPLY_TOPICS (issue 30, defect 3)', () => {
  it('exact names and prefixes; the own topics and names Kafka refuses never pass', () => {
    const { topics, problems } = parseReplyTopics('payouts.query-replies, replies.*, team-b.out');
    assert.deepEqual(problems, []);
    for (const ok of ['payouts.query-replies', 'replies.a', 'replies.team-a.x', 'team-b.out'])
      assert.equal(replyTopicRefusal(topics, ok, 'prod'), undefined, ok);
    for (const [bad, why] of [
      ['payouts.events', /the service's own/],
      ['payouts.commands', /the service's own/],
      ['payouts.queries', /the service's own/],
      ['payouts.commands.dlq', /the service's own/],
      ['team-b.out2', /QUERY_REPLY_TOPICS/],
      ['replies.no such topic!', /not a topic name/],
      ['..', /not a topic name/],
      [`replies.${'x'.repeat(250)}`, /not a topic name/],
    ] as const)
      assert.match(replyTopicRefusal(topics, bad, 'prod') ?? '', why, bad);
    // The prefix counts: a name that fits alone may not once prefixed.
    assert.match(replyTopicRefusal(topics, `replies.${'x'.repeat(238)}`, 'prod') ?? '', /not a topic name/);
  });
});
