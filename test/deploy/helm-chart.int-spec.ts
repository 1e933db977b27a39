import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { parse, parseAllDocuments } from 'yaml';
// The config module alone: the library's index would load kafkajs, pg and the rest for one constant.
import { ROLES } from '../../libs/pipeline/src/pipeline.config.js';
import { SERVICE_NODE_FLAGS } from '../../apps/payout-service/src/node-flags.js';
import { validateManifest } from './kubernetes-schemas.js';

// Renders deploy/helm/payouts with Helm's own engine (tools/helm: helm-java, Helm's Go library from
// Maven Central; docs/adr/0014-kubernetes-packaging.md), validates every manifest against the
// Kubernetes API's schemas, and checks what the chart promises: one Deployment per role, secrets
// kept out of the ConfigMap, the migration as a hook before install and upgrade, the operations
// API unreachable from outside the namespace, the alert rules as they are in deploy/prometheus.

const ROOT = resolve(import.meta.dirname, '../../..');
const CHART = resolve(ROOT, 'deploy/helm/payouts');
const NAMESPACE = 'payments';
const KUBE_VERSION = 'v1.31.0';
const DB = 'secrets.DATABASE_URL=postgres://payouts:x@postgres:5432/payouts';
/** The roles the chart deploys: the service's, and the webhooks role (its own port, WEBHOOKS_PORT). */
const CHART_ROLES = [...new Set<string>([...ROLES, 'webhooks'])].sort();

interface Container {
  name: string;
  command?: string[];
  args?: string[];
  ports?: { name: string; containerPort: number }[];
  env?: { name: string; value?: string; valueFrom?: { secretKeyRef?: { name: string; key: string } } }[];
  envFrom?: { configMapRef?: { name: string }; secretRef?: { name: string } }[];
  livenessProbe?: { httpGet: { path: string; port: string } };
  readinessProbe?: { httpGet: { path: string; port: string } };
  startupProbe?: { httpGet: { path: string; port: string } };
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
}
interface PodTemplate {
  metadata: { labels: Record<string, string> };
  spec: { containers: Container[]; terminationGracePeriodSeconds?: number };
}
type LabelSelector = { matchLabels?: Record<string, string> };
interface Peer {
  podSelector?: LabelSelector;
  namespaceSelector?: LabelSelector;
  ipBlock?: unknown;
}
interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  data?: Record<string, string>;
  stringData?: Record<string, string>;
  spec?: {
    replicas?: number;
    selector?: LabelSelector;
    namespaceSelector?: { matchNames?: string[] };
    template?: PodTemplate;
    podSelector?: LabelSelector;
    ingress?: { from?: Peer[]; ports?: { port: string | number }[] }[];
    ports?: { name: string; port: number; targetPort: string | number }[];
    jobLabel?: string;
    endpoints?: { port: string; path: string }[];
    groups?: unknown;
    maxUnavailable?: number;
  };
}

const execFileP = promisify(execFile);
const out = mkdtempSync(join(tmpdir(), 'payouts-helm-'));
const cases: Record<string, string> = {
  small: `small:${CHART}/values-small.yaml;${DB};secrets.LEDGER_ENCRYPTION_KEY=k`,
  large: `large:${CHART}/values-large.yaml`,
  noWebhooks: `noWebhooks:${CHART}/values-large.yaml;roles.webhooks.enabled=false`,
  missingSecret: `missingSecret:${CHART}/values-small.yaml`,
  sensitiveInConfig: `sensitiveInConfig:${CHART}/values-large.yaml;config.OPS_OPERATORS=alice:viewer:abcdef`,
  sensitiveInRoleEnv: `sensitiveInRoleEnv:${CHART}/values-large.yaml;roles.executor.env.DATABASE_URL=postgres://x`,
  misspeltRole: `misspeltRole:${CHART}/values-large.yaml;roles.exector.replicas=3`,
};

const parsed = new Map<string, Manifest[]>();
function rendered(name: string): Manifest[] {
  let ms = parsed.get(name);
  if (!ms) {
    ms = parseAllDocuments(readFileSync(join(out, `${name}.yaml`), 'utf8'))
      .map((d) => d.toJS() as Manifest | null)
      .filter((m): m is Manifest => m !== null);
    parsed.set(name, ms);
  }
  return ms;
}
function renderError(name: string): string {
  return readFileSync(join(out, `${name}.error`), 'utf8');
}
function ofKind(ms: Manifest[], kind: string): Manifest[] {
  return ms.filter((m) => m.kind === kind);
}
function one(ms: Manifest[], kind: string, name: string): Manifest {
  const m = ms.find((x) => x.kind === kind && x.metadata.name === name);
  assert.ok(m, `${kind} ${name} is rendered`);
  return m;
}
function matches(selector: LabelSelector | undefined, labels: Record<string, string>): boolean {
  return Object.entries(selector?.matchLabels ?? {}).every(([k, v]) => labels[k] === v);
}
function container(d: Manifest): Container {
  const c = d.spec?.template?.spec.containers[0];
  assert.ok(c, `${d.metadata.name} has a container`);
  return c;
}
function mebibytes(q: string): number {
  const m = /^(\d+)(Mi|Gi)$/.exec(q);
  assert.ok(m, `memory quantity ${q}`);
  return Number(m[1]) * (m[2] === 'Gi' ? 1024 : 1);
}
/** Variables docs/CONFIGURATION.md documents for the service (not the sandbox, not the tests), and which are sensitive. */
function documentedServiceVars(): { all: Set<string>; sensitive: Set<string> } {
  const doc = readFileSync(resolve(ROOT, 'docs/CONFIGURATION.md'), 'utf8');
  const all = new Set<string>();
  const sensitive = new Set<string>();
  for (const section of doc.split(/^## /m).slice(1)) {
    if (/^(Provider sandbox|Tests and benchmarks)/.test(section)) continue;
    for (const row of section.matchAll(/^\| `([A-Z0-9_]+)` \| [^|]* \| (yes)? *\|/gm)) {
      all.add(row[1] ?? '');
      if (row[2]) sensitive.add(row[1] ?? '');
    }
  }
  return { all, sensitive };
}

/**
 * Whether a NetworkPolicy lets a pod with `labels` in namespace `ns` reach `port` (a port name) of
 * a pod selected by it. Kubernetes' semantics for the parts the chart uses: rules are ORed; a rule
 * without `from` admits every source; a peer with only podSelector means this namespace.
 */
function admits(
  policy: Manifest,
  from: { ns: string; labels: Record<string, string> },
  port: string,
): boolean {
  return (policy.spec?.ingress ?? []).some((rule) => {
    const portOk = rule.ports === undefined || rule.ports.some((p) => p.port === port);
    if (!portOk) return false;
    if (rule.from === undefined || rule.from.length === 0) return true;
    return rule.from.some((peer) => {
      if (peer.ipBlock !== undefined) return true; // the chart uses none; treat as open
      const nsOk =
        peer.namespaceSelector === undefined
          ? from.ns === NAMESPACE
          : matches(peer.namespaceSelector, { 'kubernetes.io/metadata.name': from.ns });
      const podOk = peer.podSelector === undefined || matches(peer.podSelector, from.labels);
      return nsOk && podOk;
    });
  });
}

describe('Helm chart deploy/helm/payouts', { timeout: 300_000 }, () => {
  before(async () => {
    // One JVM renders every case (the first run fetches helm-java; scripts/lib.sh ensure_helm does it up front).
    await execFileP(
      'bash',
      [
        resolve(ROOT, 'tools/helm/helm.sh'),
        'render',
        CHART,
        out,
        'payouts',
        NAMESPACE,
        KUBE_VERSION,
        ...Object.values(cases),
      ],
      { cwd: ROOT, timeout: 280_000 },
    );
  });
  process.on('exit', () => rmSync(out, { recursive: true, force: true }));

  it('renders the small and the large set-up, every manifest valid against the Kubernetes schemas', () => {
    for (const name of ['small', 'large', 'noWebhooks']) {
      assert.ok(
        existsSync(join(out, `${name}.yaml`)),
        `${name} rendered: ${existsSync(join(out, `${name}.error`)) ? renderError(name) : ''}`,
      );
      const ms = rendered(name);
      assert.ok(ms.length > 10, `${name}: ${ms.length} manifests`);
      for (const m of ms) {
        assert.deepEqual(validateManifest(m), [], `${name}: ${m.kind} ${m.metadata.name}`);
        assert.match(
          m.metadata.name,
          /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/,
          `${m.kind} name is a DNS label`,
        );
      }
    }
  });

  it('the schema check can fail: a Deployment with a string for replicas is refused', () => {
    const d = structuredClone(one(rendered('large'), 'Deployment', 'payouts-executor'));
    (d.spec as Record<string, unknown>)['replicas'] = 'four';
    assert.notDeepEqual(validateManifest(d), []);
    assert.notDeepEqual(validateManifest({ ...d, kind: 'Deploymnet' }), [], 'an unknown kind is refused');
  });

  it('refuses values it does not know (values.schema.json): a misspelt role is an error, not ignored', () => {
    assert.match(renderError('misspeltRole'), /additional properties 'exector' not allowed/);
  });

  it('runs one Deployment per role with SERVICE_ROLES set to that role, replicas from the values', () => {
    const large = rendered('large');
    const deployments = ofKind(large, 'Deployment');
    assert.deepEqual(
      deployments.map((d) => d.metadata.name).sort(),
      CHART_ROLES.map((r) => `payouts-${r}`),
    );
    const replicas = parse(readFileSync(`${CHART}/values-large.yaml`, 'utf8')) as {
      roles: Record<string, { replicas: number }>;
    };
    for (const role of CHART_ROLES) {
      const d = one(large, 'Deployment', `payouts-${role}`);
      const roles = container(d).env?.filter((e) => e.name === 'SERVICE_ROLES') ?? [];
      assert.deepEqual(
        roles.map((e) => e.value),
        [role],
        `${role}: SERVICE_ROLES`,
      );
      assert.equal(d.spec?.replicas, replicas.roles[role]?.replicas, `${role}: replicas`);
      assert.ok(
        matches(d.spec?.selector, d.spec?.template?.metadata.labels ?? {}),
        `${role}: selector matches its pods`,
      );
    }
    for (const d of ofKind(rendered('small'), 'Deployment'))
      assert.equal(d.spec?.replicas, 1, d.metadata.name);
    assert.equal(
      ofKind(rendered('noWebhooks'), 'Deployment').some((d) => d.metadata.name === 'payouts-webhooks'),
      false,
    );
  });

  it('probes /health/live and /health/ready on the HTTP port; only the webhooks role opens WEBHOOKS_PORT', () => {
    const large = rendered('large');
    const config = one(large, 'ConfigMap', 'payouts-config').data ?? {};
    for (const d of ofKind(large, 'Deployment')) {
      const c = container(d);
      const http = c.ports?.find((p) => p.name === 'http');
      assert.equal(
        String(http?.containerPort),
        config['HTTP_PORT'],
        `${d.metadata.name}: http port is HTTP_PORT`,
      );
      assert.deepEqual(c.livenessProbe?.httpGet, { path: '/health/live', port: 'http' });
      assert.deepEqual(c.readinessProbe?.httpGet, { path: '/health/ready', port: 'http' });
      assert.deepEqual(c.startupProbe?.httpGet, { path: '/health/live', port: 'http' });
      const webhooks = c.ports?.find((p) => p.name === 'webhooks');
      if (d.metadata.name === 'payouts-webhooks')
        assert.equal(String(webhooks?.containerPort), config['WEBHOOKS_PORT']);
      else assert.equal(webhooks, undefined, `${d.metadata.name} opens no webhooks port`);
    }
    assert.equal(config['WEBHOOKS_PORT'], '3001');
  });

  it('runs the image CMD (its V8 flags), with a memory limit above the heap those flags allow', () => {
    const semi = Number(/--max-semi-space-size=(\d+)/.exec(SERVICE_NODE_FLAGS.join(' '))?.[1]);
    const old = Number(/--max-old-space-size=(\d+)/.exec(SERVICE_NODE_FLAGS.join(' '))?.[1]);
    assert.ok(semi > 0 && old > 0);
    // Young generation: 3 semi-spaces; plus code, stacks and buffers outside the heap.
    const floor = old + 3 * semi + 64;
    for (const name of ['small', 'large']) {
      for (const d of ofKind(rendered(name), 'Deployment')) {
        const c = container(d);
        assert.equal(
          c.command,
          undefined,
          `${d.metadata.name}: no command, so the image's CMD and flags apply`,
        );
        assert.equal(c.args, undefined);
        const limit = mebibytes(c.resources?.limits?.['memory'] ?? '0Mi');
        assert.ok(limit >= floor, `${name} ${d.metadata.name}: memory limit ${limit}Mi >= ${floor}Mi`);
        assert.ok(c.resources?.requests?.['cpu'], 'a CPU request');
      }
    }
  });

  it('lets in-flight provider calls finish: the grace period exceeds SHUTDOWN_GRACE_MS', () => {
    for (const name of ['small', 'large']) {
      const ms = rendered(name);
      const grace = Number(one(ms, 'ConfigMap', 'payouts-config').data?.['SHUTDOWN_GRACE_MS'] ?? 60_000);
      for (const d of ofKind(ms, 'Deployment')) {
        const seconds = d.spec?.template?.spec.terminationGracePeriodSeconds ?? 30;
        assert.ok(seconds * 1000 > grace + 5_000, `${d.metadata.name}: ${seconds}s > ${grace}ms + 5s`);
      }
    }
  });

  it('keeps secrets out of the ConfigMap: every key is a documented, non-sensitive variable', () => {
    const { all, sensitive } = documentedServiceVars();
    assert.ok(sensitive.has('DATABASE_URL') && all.has('HTTP_PORT'), 'parsed docs/CONFIGURATION.md');
    const helpers = readFileSync(`${CHART}/templates/_helpers.tpl`, 'utf8');
    const listed =
      /define "payouts.sensitiveVars" -}}\s*([A-Z0-9_ ]+)\s*{{-/.exec(helpers)?.[1]?.trim().split(/\s+/) ??
      [];
    assert.deepEqual(
      listed.sort(),
      [...sensitive].sort(),
      'the chart refuses exactly the sensitive variables',
    );
    for (const name of ['small', 'large']) {
      const data = one(rendered(name), 'ConfigMap', 'payouts-config').data ?? {};
      for (const key of Object.keys(data)) {
        assert.ok(!sensitive.has(key), `${name}: ${key} is sensitive`);
        // WEBHOOKS_PORT: declared by the webhooks role's config section.
        assert.ok(
          all.has(key) || key.startsWith('OTEL_') || key === 'WEBHOOKS_PORT',
          `${name}: ${key} is a documented variable`,
        );
      }
    }
    assert.match(renderError('sensitiveInConfig'), /OPS_OPERATORS is sensitive/);
    assert.match(renderError('sensitiveInRoleEnv'), /DATABASE_URL is sensitive/);
    assert.match(renderError('missingSecret'), /DATABASE_URL is required/);
  });

  it('gives every role the ConfigMap and the Secret; the chart-made Secret holds only what was given', () => {
    for (const [name, secretName] of [
      ['small', 'payouts-secrets'],
      ['large', 'payouts-secrets'],
    ] as const) {
      const ms = rendered(name);
      for (const d of ofKind(ms, 'Deployment')) {
        const refs = container(d).envFrom ?? [];
        assert.deepEqual(refs, [
          { configMapRef: { name: 'payouts-config' } },
          { secretRef: { name: secretName } },
        ]);
      }
      const secret = ms.find((m) => m.kind === 'Secret');
      if (name === 'small')
        assert.deepEqual(Object.keys(secret?.stringData ?? {}).sort(), [
          'DATABASE_URL',
          'LEDGER_ENCRYPTION_KEY',
        ]);
      else assert.equal(secret, undefined, 'existingSecret: the chart makes no Secret');
    }
  });

  it('migrates the database in a Job that runs before install and before every upgrade', () => {
    for (const name of ['small', 'large']) {
      const ms = rendered(name);
      const job = one(ms, 'Job', 'payouts-migrate');
      const hooks = job.metadata.annotations?.['helm.sh/hook']?.split(',') ?? [];
      assert.ok(hooks.includes('pre-install') && hooks.includes('pre-upgrade'), `hooks: ${hooks.join(',')}`);
      const c = container(job);
      assert.deepEqual(c.command, ['node', 'dist/libs/database/src/cli/migrate.js', 'run']);
      assert.ok(existsSync(resolve(ROOT, 'libs/database/src/cli/migrate.ts')), 'the entry point exists');
      const compose = parse(readFileSync(resolve(ROOT, 'docker-compose.yml'), 'utf8')) as {
        services: { migrate: { command: string[] } };
      };
      assert.deepEqual(c.command, compose.services.migrate.command, 'the same command as docker-compose');
      const url = c.env?.find((e) => e.name === 'DATABASE_URL');
      assert.deepEqual(url?.valueFrom?.secretKeyRef, { name: 'payouts-secrets', key: 'DATABASE_URL' });
      const secret = ms.find((m) => m.kind === 'Secret');
      if (secret) {
        // The Job reads the Secret, so a chart-made Secret is a hook too, created before it.
        const w = (m: Manifest): number => Number(m.metadata.annotations?.['helm.sh/hook-weight'] ?? 0);
        assert.equal(
          secret.metadata.annotations?.['helm.sh/hook'],
          job.metadata.annotations?.['helm.sh/hook'],
        );
        assert.ok(w(secret) < w(job));
      }
    }
  });

  it('keeps the HTTP port (/ops, /metrics) to the namespace and Prometheus; the webhooks port takes ingress', () => {
    for (const name of ['small', 'large', 'noWebhooks']) {
      const ms = rendered(name);
      const policy = one(ms, 'NetworkPolicy', 'payouts');
      for (const d of ofKind(ms, 'Deployment')) {
        assert.ok(
          matches(policy.spec?.podSelector, d.spec?.template?.metadata.labels ?? {}),
          `${d.metadata.name} is selected`,
        );
      }
      const outsider = { ns: 'elsewhere', labels: { app: 'curious' } };
      const neighbour = { ns: NAMESPACE, labels: { app: 'neighbour' } };
      const prometheus = { ns: 'monitoring', labels: { 'app.kubernetes.io/name': 'prometheus' } };
      const otherMonitoring = { ns: 'monitoring', labels: { app: 'grafana' } };
      assert.equal(admits(policy, outsider, 'http'), false, `${name}: /ops from another namespace`);
      assert.equal(admits(policy, otherMonitoring, 'http'), false, `${name}: /ops from a non-Prometheus pod`);
      assert.equal(admits(policy, neighbour, 'http'), true, `${name}: same namespace`);
      assert.equal(admits(policy, prometheus, 'http'), true, `${name}: Prometheus scrapes /metrics`);
      const ingress = { ns: 'ingress-nginx', labels: {} };
      if (name === 'small')
        assert.equal(admits(policy, outsider, 'webhooks'), true, 'webhooks from anywhere');
      if (name === 'large') {
        assert.equal(admits(policy, ingress, 'webhooks'), true, 'webhooks from the ingress controller');
        assert.equal(
          admits(policy, outsider, 'webhooks'),
          false,
          'webhooks only from the ingress controller',
        );
      }
      if (name === 'noWebhooks') assert.equal(admits(policy, ingress, 'webhooks'), false);
      assert.equal(admits(policy, outsider, 'metrics'), false, 'no other port is open');
    }
    // The Service meant for traffic from outside carries the webhooks port only.
    const pub = one(rendered('large'), 'Service', 'payouts-webhooks-public');
    assert.deepEqual(
      pub.spec?.ports?.map((p) => p.targetPort),
      ['webhooks'],
    );
  });

  it('keeps a PodDisruptionBudget per role that selects that role only', () => {
    const large = rendered('large');
    const pdbs = ofKind(large, 'PodDisruptionBudget');
    assert.equal(pdbs.length, CHART_ROLES.length);
    for (const pdb of pdbs) {
      const selected = ofKind(large, 'Deployment').filter((d) =>
        matches(pdb.spec?.selector, d.spec?.template?.metadata.labels ?? {}),
      );
      assert.deepEqual(
        selected.map((d) => d.metadata.name),
        [pdb.metadata.name],
      );
      assert.ok((pdb.spec?.maxUnavailable ?? 0) >= 1, 'a drain can always proceed');
    }
  });

  it('scrapes every role as job="payout-service" and ships deploy/prometheus/alerts.yml as the PrometheusRule', () => {
    const large = rendered('large');
    const monitor = one(large, 'ServiceMonitor', 'payouts');
    const scraped = ofKind(large, 'Service').filter((s) =>
      matches(monitor.spec?.selector, s.metadata.labels ?? {}),
    );
    assert.deepEqual(
      scraped.map((s) => s.metadata.name).sort(),
      CHART_ROLES.map((r) => `payouts-${r}`),
    );
    const alerts = parse(readFileSync(resolve(ROOT, 'deploy/prometheus/alerts.yml'), 'utf8')) as {
      groups: { rules: { expr: string }[] }[];
    };
    const job = alerts.groups
      .flatMap((g) => g.rules)
      .map((r) => /up\{job="([^"]+)"\}/.exec(r.expr)?.[1])
      .find((j) => j !== undefined);
    assert.ok(job, 'the alert rules name the job');
    for (const s of scraped) {
      assert.equal(s.metadata.labels?.[monitor.spec?.jobLabel ?? ''], job, `${s.metadata.name}: job label`);
      assert.ok(s.spec?.ports?.some((p) => p.name === monitor.spec?.endpoints?.[0]?.port));
    }
    assert.equal(monitor.spec?.endpoints?.[0]?.path, '/metrics');
    assert.deepEqual(monitor.spec?.namespaceSelector?.matchNames, [NAMESPACE]);
    assert.deepEqual(one(large, 'PrometheusRule', 'payouts').spec?.groups, alerts.groups);
    const small = rendered('small');
    assert.equal(
      ofKind(small, 'ServiceMonitor').length + ofKind(small, 'PrometheusRule').length,
      0,
      'off in small',
    );
  });
});
