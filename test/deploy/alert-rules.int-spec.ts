import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parse } from 'yaml';
import { skipUnless } from '#test-support';

const ROOT = resolve(import.meta.dirname, '../../..');
const TESTS = resolve(ROOT, 'deploy/prometheus/alerts.test.yml');

interface RuleTests {
  rule_files?: string[];
  tests?: Array<{ alert_rule_test?: Array<{ alertname?: string; exp_alerts?: unknown[] }> }>;
}

// The alert rules evaluated against input series (`promtool test rules`): each alert listed here
// has a case that must fire and one that must not, so a wrong expression fails. The metrics they
// name exist on a running service: test/observability/metrics.int-spec.ts.
describe('alert rules against input series (promtool test rules)', () => {
  // promtool compares the whole list of firing alerts at each eval_time: the accounts of a case
  // that are not listed must not fire (each case has one, e.g. above its threshold).
  it('the funds alerts (issue 32, the hold for funds of ADR 0027) each have cases, one of which fires', () => {
    const doc = parse(readFileSync(TESTS, 'utf8')) as RuleTests;
    assert.deepEqual(doc.rule_files, ['alerts.yml']);
    const cases = (doc.tests ?? []).flatMap((t) => t.alert_rule_test ?? []);
    for (const alert of [
      'FundsLowBalance',
      'FundsTimeToEmpty',
      'BalanceReadingStale',
      'PayoutsHeldTooLong',
      'FundsBounced',
    ]) {
      const mine = cases.filter((c) => c.alertname === alert);
      assert.ok(mine.length >= 2, `${alert}: cases`);
      assert.ok(
        mine.some((c) => (c.exp_alerts ?? []).length > 0),
        `${alert}: a case that fires`,
      );
    }
  });

  it('promtool test rules deploy/prometheus/alerts.test.yml passes (when promtool is installed)', (t) => {
    const present = spawnSync('promtool', ['--version'], { stdio: 'ignore' }).status === 0;
    const missing = skipUnless(present, 'promtool is not on PATH (Debian package `prometheus`)');
    if (missing) {
      t.skip(missing);
      return;
    }
    const run = spawnSync('promtool', ['test', 'rules', TESTS], { encoding: 'utf8' });
    assert.equal(run.status, 0, `${run.stdout}\n${run.stderr}`);
  });
});
