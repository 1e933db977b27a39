import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { loadSection } from '#config';
import { pipelineConfig } from './pipeline.config.js';
import { fundsHoldSettings } from './funds/funds-hold.config.js';

const H = 3_600_000;
const load = (env: Record<string, string>) => {
  const problems: string[] = [];
  const c = loadSection(pipelineConfig, env, problems);
  return { c, problems };
};

describe('the hold for funds settings (issue 32, ADR 0027)', () => {
  it('off by default: no account held', () => {
    const { c, problems } = load({});
    assert.deepEqual(problems, []);
    assert.equal(fundsHoldSettings(c, ['default']).accounts.size, 0);
  });

  it('per account: its threshold and fee in paise and its maximum hold, else the global one (96h)', () => {
    const { c, problems } = load({
      FUNDS_HOLD: '[{"accountId":"a","threshold":"5000.50","fee":"5.90","maxHold":"2h"},{"accountId":"b"}]',
    });
    assert.deepEqual(problems, []);
    const s = fundsHoldSettings(c, ['a', 'b', 'c']);
    assert.deepEqual(s.accounts.get('a'), { thresholdPaise: 500050n, feePaise: 590n, maxHoldMs: 2 * H });
    assert.deepEqual(s.accounts.get('b'), { thresholdPaise: 0n, feePaise: 0n, maxHoldMs: 96 * H });
    assert.equal(s.accounts.has('c'), false, 'not listed: holding off');
  });

  it('refuses what would hold nothing or wait forever, naming the problem', () => {
    const bad: Array<[Record<string, string>, RegExp]> = [
      [{ FUNDS_HOLD: 'acc_main' }, /FUNDS_HOLD.*JSON/],
      [{ FUNDS_HOLD: '[{"accountId":"a","threshold":"12.345"}]' }, /FUNDS_HOLD.*threshold/],
      [{ FUNDS_HOLD: '[{"accountId":"a","threshold":"-1"}]' }, /FUNDS_HOLD.*threshold/],
      [{ FUNDS_HOLD: '[{"accountId":"a","fee":"5.905"}]' }, /FUNDS_HOLD.*fee/],
      [{ FUNDS_HOLD: '[{"accountId":"a","fee":"-5"}]' }, /FUNDS_HOLD.*fee/],
      [{ FUNDS_HOLD: '[{"accountId":"a","fee":5.9}]' }, /FUNDS_HOLD.*fee/],
      [{ FUNDS_HOLD: '[{"accountId":"a","maxHold":"11d"}]' }, /FUNDS_HOLD.*maxHold/],
      [{ FUNDS_HOLD: '[{"accountId":"a","maxHold":"300h"}]' }, /FUNDS_HOLD.*maxHold.*240h/],
      [{ FUNDS_HOLD: '[{"accountId":"a"},{"accountId":"a"}]' }, /one entry per account/],
      [{ FUNDS_HOLD: '[{"accountId":"a","limit":"1"}]' }, /FUNDS_HOLD/],
      [{ FUNDS_MAX_HOLD: '0s' }, /FUNDS_MAX_HOLD.*1s/],
    ];
    for (const [env, want] of bad) {
      const { problems } = load(env);
      assert.match(problems.join('\n'), want, JSON.stringify(env));
    }
  });

  it('an account not configured, or holding with the balance reader off, refuses to start', () => {
    const { c } = load({ FUNDS_HOLD: '[{"accountId":"acc_typo"}]' });
    assert.throws(
      () => fundsHoldSettings(c, ['acc_main']),
      /acc_typo.*PROVIDER_ACCOUNTS|PROVIDER_ACCOUNTS.*acc_typo/,
    );
    const off = load({ FUNDS_HOLD: '[{"accountId":"a"}]', BALANCE_READ_INTERVAL_MS: '0' }).c;
    assert.throws(() => fundsHoldSettings(off, ['a']), /BALANCE_READ_INTERVAL_MS/);
  });
});
