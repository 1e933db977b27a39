import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { loadSection } from '#config';
import { pipelineConfig } from './pipeline.config.js';
import { replyTopicRefusal } from './queries/reply-topics.js';

const load = (env: Record<string, string>) => {
  const problems: string[] = [];
  const c = loadSection(pipelineConfig, env, problems);
  return { c, problems };
};

describe('QUERY_REPLY_TOPICS at boot (issue 30, defect 3)', () => {
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
});
