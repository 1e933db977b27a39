import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { loadSection } from '#config';
import { pipelineConfig } from './pipeline.config.js';
import { longWaitRules } from './long-waits.config.js';

const H = 3_600_000;
const load = (env: Record<string, string>) => {
  const problems: string[] = [];
  const c = loadSection(pipelineConfig, env, problems);
  return { c, problems };
};

describe('the long waits settings (issue 29)', () => {
  it('defaults: the provider queues 4 days, an approval waits 7, the watch 14, the default bank calendar', () => {
    const { c, problems } = load({});
    assert.deepEqual(problems, []);
    const w = longWaitRules(c);
    assert.equal(w.queued.maxMs, 96 * H);
    assert.equal(w.queued.delays.at(-1), H, 'hourly once the wait is long');
    assert.equal(w.approvalPending.maxMs, 168 * H);
    assert.equal(w.attention.maxMs, 336 * H);
    assert.equal(w.nextWorkingDay.cutoffMinutes, 18 * 60);
    assert.deepEqual(w.calendar.weeklyOff, [0]);
    assert.deepEqual(w.calendar.offSaturdays, [2, 4]);
    assert.equal(w.calendar.utcOffsetMinutes, 330);
  });

  it('per account: its queue time (up to 10 days) and calendar', () => {
    const { c, problems } = load({
      BANK_CALENDAR: '{"holidays":["2026-12-25"]}',
      LONG_WAIT_ACCOUNTS: '[{"accountId":"a","queueMaxWait":"240h","calendar":{"offSaturdays":[]}}]',
    });
    assert.deepEqual(problems, []);
    const w = longWaitRules(c);
    assert.equal(w.accounts.get('a')?.queueMaxMs, 240 * H);
    assert.deepEqual(w.accounts.get('a')?.calendar?.offSaturdays, []);
    assert.deepEqual(w.accounts.get('a')?.calendar?.holidays, ['2026-12-25'], 'the shared holidays');
    assert.deepEqual(w.calendar.holidays, ['2026-12-25']);
  });

  it('refuses what the provider does not allow or a calendar without working days', () => {
    const refused: Array<Record<string, string>> = [
      { QUEUED_MAX_WAIT: '241h' },
      { QUEUED_MAX_WAIT: '30m' },
      { LONG_WAIT_ACCOUNTS: '[{"accountId":"a","queueMaxWait":"300h"}]' },
      { BANK_CALENDAR: '{"weeklyOff":[0,1,2,3,4,5,6]}' },
      { BANK_CALENDAR: '{"holiday":["2026-12-25"]}' },
      { NEXT_WORKING_DAY_CUTOFF: '25:00' },
      { QUEUED_CHECK_SCHEDULE: 'off' },
    ];
    for (const env of refused) {
      assert.notDeepEqual(load(env).problems, [], JSON.stringify(env));
    }
    assert.deepEqual(longWaitRules(load({ ATTENTION_WATCH_SCHEDULE: 'off' }).c).attention.delays, []);
  });
});
