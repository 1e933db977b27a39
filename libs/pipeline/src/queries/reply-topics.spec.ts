import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { loadSection } from '#config';
import { pipelineConfig } from '../pipeline.config.js';
import { parseReplyTopics, replyTopicRefusal } from './reply-topics.js';

const load = (env: Record<string, string>) => {
  const problems: string[] = [];
  const c = loadSection(pipelineConfig, env, problems);
  return { c, problems };
};

describe('QUERY_REPLY_TOPICS (issue 30, defect 3)', () => {
  it('default: the default reply topic only', () => {
    const { c, problems } = load({});
    assert.deepEqual(problems, []);
    const t = c.QUERY_REPLY_TOPICS;
    assert.equal(replyTopicRefusal(t, 'payouts.query-replies', 'p'), undefined);
    assert.match(replyTopicRefusal(t, 'team-a.replies', 'p') ?? '', /not an allowed reply topic/);
  });

  it("the boot refuses an entry that would allow the service's own topics, or every topic, or no topic name", () => {
    for (const [spec, why] of [
      ['payouts.events', /own topic payouts\.events/],
      ['payouts.*', /own topic payouts\.commands, payouts\.commands\.dlq, payouts\.events, payouts\.queries/],
      ['payouts.q*', /own topic payouts\.queries/],
      ['payouts.commands.dlq', /own topic payouts\.commands\.dlq/],
      ['*', /every topic/],
      ['replies for me', /not a topic name/],
      [' , ', /at least one topic/],
    ] as const) {
      const { problems } = load({ QUERY_REPLY_TOPICS: spec });
      assert.equal(problems.length, 1, spec);
      assert.match(problems[0] ?? '', why, spec);
      assert.match(problems[0] ?? '', /QUERY_REPLY_TOPICS/, 'the problem names the variable');
    }
  });

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
