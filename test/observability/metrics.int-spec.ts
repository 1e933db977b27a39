import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parse } from 'yaml';
import { eventually, skipUnless, startStack, type Stack } from '#test-support';
import { exposedNames, metricNamesIn, parseExposition, valueOf } from './prom-text.js';

const ROOT = resolve(import.meta.dirname, '../../..');
const N = 3;

interface AlertRule {
  alert?: string;
  expr?: string;
  for?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}
interface Panel {
  id?: number;
  title?: string;
  type?: string;
  gridPos?: { x: number; y: number; w: number; h: number };
  targets?: Array<{ refId?: string; expr?: string }>;
}

// Metrics Prometheus makes itself (not on /metrics) that alerts may use.
const PROMETHEUS_BUILTINS = new Set(['up']);

function promtoolOnPath(): boolean {
  return spawnSync('promtool', ['--version'], { stdio: 'ignore' }).status === 0;
}

// After a known run (N standard transfers that succeed), the service's own /metrics shows them, and
// every metric named by the alert rules and the dashboard in deploy/ exists there: renaming a
// metric without updating deploy/ fails this file.
describe('metrics after a known run, and the alert rules and dashboard that use them', () => {
  let stack: Stack;
  let metricsText = '';

  const scrape = async (): Promise<ReturnType<typeof parseExposition>> => {
    const res = await fetch(`${stack.services[0]?.url ?? ''}/metrics`);
    assert.equal(res.status, 200);
    metricsText = await res.text();
    return parseExposition(metricsText);
  };

  before(async () => {
    stack = await startStack();
    await stack.registerBeneficiary({ beneId: 'OBS1', bankAccount: '026291800001191', ifsc: 'YESB0000262' });
    await stack.startService();
    for (let i = 1; i <= N; i++) {
      await stack.send({
        type: 'payout.standard_transfer',
        data: { transferId: `obs_${i}`, beneId: 'OBS1', amount: '10.00', transferMode: 'banktransfer' },
      });
    }
    for (let i = 1; i <= N; i++) await stack.waitForStatus(`obs_${i}`, 'SUCCESS');
  });
  after(async () => {
    await stack?.close();
  });

  it('counts commands, ledger rows, provider calls and consumer lag of the run', async () => {
    // Gauges computed on scrape are cached for a few seconds: wait until they show the run.
    const { samples } = await eventually(
      async () => {
        const s = await scrape();
        return valueOf(s.samples, 'payouts_ledger_rows', { kind: 'payout', status: 'SUCCESS' }) === N &&
          valueOf(s.samples, 'payouts_consumer_lag_messages', { topic: 'payouts.commands' }) === 0
          ? s
          : undefined;
      },
      { timeoutMs: 20_000, what: 'ledger gauge and lag to show the run' },
    );
    assert.equal(
      valueOf(samples, 'payouts_commands_consumed_total', {
        type: 'payout.standard_transfer',
        result: 'accepted',
      }),
      N,
    );
    assert.equal(valueOf(samples, 'payouts_ledger_rows', { kind: 'payout', status: 'RECEIVED' }), 0);
    assert.equal(valueOf(samples, 'payouts_ledger_rows', { kind: 'batch', status: 'COMPLETED' }), 0);
    assert.equal(
      valueOf(samples, 'payouts_provider_request_duration_seconds_count', {
        endpoint: 'POST /payout/v1.2/requestTransfer',
        outcome: 'success',
      }),
      N,
    );
    assert.equal(valueOf(samples, 'payouts_provider_authorize_total', { result: 'success' }), 1);
    for (const status of ['SUBMITTING', 'PENDING', 'UNKNOWN'])
      assert.equal(valueOf(samples, 'payouts_oldest_unclear_age_seconds', { kind: 'payout', status }), 0);
    for (const check of ['postgres', 'kafka', 'provider'])
      assert.equal(valueOf(samples, 'payouts_readiness', { check }), 1, check);
    assert.equal(valueOf(samples, 'payouts_provider_fatal_config_accounts'), 0);
    // The outflow FundsTimeToEmpty divides by (issue 32): the N payouts of 10.00, in paise.
    assert.equal(valueOf(samples, 'payouts_paid_amount_paise_total'), N * 1000);
    const thresholds = samples.filter((s) => s.name === 'payouts_funds_low_threshold_paise');
    assert.ok(thresholds.length > 0 && thresholds.every((s) => s.value === 0), 'the default threshold is 0');
    assert.equal(valueOf(samples, 'payouts_outbox_dead_rows'), 0);
    // No bounce in this run, and the configured accounts' series exist from 0 (FundsBounced sees
    // the first refusal).
    const bounces = samples.filter((s) => s.name === 'payouts_provider_balance_refusals_total');
    assert.ok(bounces.length > 0 && bounces.every((s) => s.value === 0), 'refusal counts start at 0');
    // RECEIVED, SUBMITTING and SUCCESS of each payout were published.
    assert.ok((valueOf(samples, 'payouts_relay_published_total') ?? 0) >= 3 * N);
    // Labels never carry ids or amounts.
    for (const s of samples)
      for (const v of Object.values(s.labels))
        assert.ok(!/obs_\d|OBS1|10\.00/.test(v), `${s.name} label ${v}`);
  });

  it('alerts.yml: well-formed rules with a runbook section each, on metrics that exist', async () => {
    const { types } = await scrape();
    const exposed = exposedNames(types);
    const doc = parse(readFileSync(resolve(ROOT, 'deploy/prometheus/alerts.yml'), 'utf8')) as {
      groups: Array<{ name: string; rules: AlertRule[] }>;
    };
    const operations = readFileSync(resolve(ROOT, 'docs/OPERATIONS.md'), 'utf8');
    const promConfig = parse(readFileSync(resolve(ROOT, 'deploy/prometheus.yml'), 'utf8')) as {
      rule_files?: string[];
    };
    assert.deepEqual(promConfig.rule_files, ['prometheus/alerts.yml']);
    assert.match(
      readFileSync(resolve(ROOT, 'docker-compose.yml'), 'utf8'),
      /\.\/deploy\/prometheus\/alerts\.yml:\/etc\/prometheus\/prometheus\/alerts\.yml/,
    );
    const rules = doc.groups.flatMap((g) => g.rules);
    assert.ok(rules.length >= 9);
    const names = new Set<string>();
    for (const r of rules) {
      assert.ok(r.alert && /^[A-Z][A-Za-z]+$/.test(r.alert), `alert name ${r.alert}`);
      assert.ok(!names.has(r.alert), `duplicate ${r.alert}`);
      names.add(r.alert);
      assert.ok(r.expr && r.expr.trim().length > 0, `${r.alert} has an expr`);
      assert.match(r.for ?? '', /^\d+[smh]$/, `${r.alert} has a duration`);
      assert.ok(['critical', 'warning'].includes(r.labels?.['severity'] ?? ''), `${r.alert} severity`);
      assert.ok(r.annotations?.['summary'], `${r.alert} summary`);
      const anchor = r.alert.toLowerCase();
      assert.equal(r.annotations?.['runbook'], `docs/OPERATIONS.md#${anchor}`);
      assert.match(operations, new RegExp(`^### ${r.alert}$`, 'm'), `runbook section for ${r.alert}`);
      for (const m of metricNamesIn(r.expr)) {
        assert.ok(exposed.has(m) || PROMETHEUS_BUILTINS.has(m), `${r.alert} uses ${m}, not on /metrics`);
      }
    }
    for (const a of [
      'ReadinessDown',
      'ProviderFatalConfig',
      'PayoutsRequireAttention',
      'OldestUnclearPayoutTooOld',
      'OutboxBacklogGrowing',
      'OutboxDeadRows',
      'DeadLettersIncreasing',
      'ConsumerLagHigh',
      'ProviderErrorsHigh',
      'PayoutApprovalWaitingTooLong',
    ])
      assert.ok(names.has(a), `alert ${a}`);
  });

  it('the Grafana dashboard: well-formed panels, each querying metrics that exist', async () => {
    const { types } = await scrape();
    const exposed = exposedNames(types);
    const dash = JSON.parse(readFileSync(resolve(ROOT, 'deploy/grafana/payouts-dashboard.json'), 'utf8')) as {
      title?: string;
      uid?: string;
      panels?: Panel[];
    };
    assert.ok(dash.title && dash.uid);
    const panels = dash.panels ?? [];
    assert.ok(panels.length >= 10);
    const ids = new Set<number>();
    const used = new Set<string>();
    for (const p of panels) {
      assert.ok(typeof p.id === 'number' && !ids.has(p.id), `unique panel id ${p.id}`);
      ids.add(p.id);
      assert.ok(p.title && p.type && p.gridPos, `panel ${p.id} has title, type and position`);
      assert.ok((p.targets ?? []).length > 0, `${p.title} has queries`);
      for (const t of p.targets ?? []) {
        assert.ok(t.refId && t.expr, `${p.title}: refId and expr`);
        const metrics = metricNamesIn(t.expr);
        assert.ok(metrics.length > 0, `${p.title}: ${t.expr} names a metric`);
        for (const m of metrics) {
          assert.ok(exposed.has(m), `${p.title} uses ${m}, not on /metrics`);
          used.add(m);
        }
      }
    }
    // The list: every one of these is on the dashboard.
    for (const m of [
      'payouts_commands_consumed_total',
      'payouts_commands_dead_lettered_total',
      'payouts_ledger_rows',
      'payouts_oldest_unclear_age_seconds',
      'payouts_provider_request_duration_seconds_bucket',
      'payouts_provider_authorize_total',
      'payouts_provider_rate_limit_wait_seconds_sum',
      'payouts_outbox_backlog',
      'payouts_outbox_oldest_age_seconds',
      'payouts_relay_publish_latency_seconds_bucket',
      'payouts_outbox_dead_rows',
      'payouts_reconciler_checks_total',
      'payouts_reconciler_transitions_total',
      'payouts_requires_attention_total',
      'payouts_consumer_lag_messages',
      'payouts_provider_balance_refusals_total',
    ])
      assert.ok(used.has(m), `dashboard shows ${m}`);
  });

  it('every payouts_* metric on /metrics is documented in docs/OPERATIONS.md', async () => {
    const { types } = await scrape();
    const operations = readFileSync(resolve(ROOT, 'docs/OPERATIONS.md'), 'utf8');
    const ours = [...types.keys()].filter(
      (n) => n.startsWith('payouts_') && !/^payouts_(process|nodejs)_/.test(n),
    );
    for (const n of ours) assert.ok(operations.includes(`\`${n}\``), `${n} documented`);
  });

  it('promtool check rules / check config pass (when promtool is installed)', (t) => {
    const missing = skipUnless(
      promtoolOnPath(),
      'promtool is not on PATH (Debian package `prometheus`); the parser checks above still ran',
    );
    if (missing) {
      t.skip(missing);
      return;
    }
    execFileSync('promtool', ['check', 'rules', resolve(ROOT, 'deploy/prometheus/alerts.yml')], {
      stdio: 'pipe',
    });
    execFileSync('promtool', ['check', 'config', resolve(ROOT, 'deploy/prometheus.yml')], { stdio: 'pipe' });
  });
});
