import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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
// API and /metrics reachable only from labelled pods, egress only to what the service uses, no
// digest of the Secret in a pod spec, the alert rules as they are in deploy/prometheus.

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
  metadata: { labels: Record<string, string>; annotations?: Record<string, string> };
  spec: { containers: Container[]; terminationGracePeriodSeconds?: number };
}
type LabelSelector = { matchLabels?: Record<string, string> };
interface Peer {
  podSelector?: LabelSelector;
  namespaceSelector?: LabelSelector;
  ipBlock?: { cidr: string; except?: string[] };
}
interface PolicyRule {
  from?: Peer[];
  to?: Peer[];
  ports?: { port: string | number; protocol?: string }[];
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
    policyTypes?: string[];
    ingress?: PolicyRule[];
    egress?: PolicyRule[];
    ports?: { name: string; port: number; targetPort: string | number }[];
    jobLabel?: string;
    endpoints?: { port: string; path: string }[];
    groups?: unknown;
    maxUnavailable?: number;
  };
}

const execFileP = promisify(execFile);
const out = mkdtempSync(join(tmpdir(), 'payouts-helm-'));
/** A values file for one case (an empty list cannot be given with --set). */
function valuesFile(name: string, text: string): string {
  const file = join(out, `${name}.values.yaml`);
  writeFileSync(file, text);
  return file;
}
/** What deploymentMode=production (the default) needs besides the secrets: the provider's ids and hosts. */
const PRODUCTION_CONFIG = valuesFile(
  'production-config',
  [
    'config:',
    '  PROVIDER_CLIENT_ID: live-client',
    '  LEDGER_ENCRYPTION_KEY_ID: prod-1',
    '  PROVIDER_BASE_URL: https://api.provider.example.com/payout',
    '  PROVIDER_PAYOUT_URL: https://payout.provider.example.com',
    '',
  ].join('\n'),
);
const SMALL_ONLY = `${CHART}/values-small.yaml,${PRODUCTION_CONFIG}`;
const LARGE = `${CHART}/values-large.yaml,${PRODUCTION_CONFIG}`;
const SECRETS =
  'secrets.LEDGER_ENCRYPTION_KEY=k;secrets.PROVIDER_CLIENT_SECRET=s;secrets.DEAD_LETTER_DIGEST_KEY=d';
const SMALL = `${SMALL_ONLY};${DB};${SECRETS}`;
const cases: Record<string, string> = {
  small: `small:${SMALL}`,
  // The same release with other secret values: its pod specs must not tell them apart.
  smallOtherSecrets: `smallOtherSecrets:${SMALL_ONLY};secrets.DATABASE_URL=postgres://payouts:y@postgres:5432/payouts;secrets.LEDGER_ENCRYPTION_KEY=k2;secrets.PROVIDER_CLIENT_SECRET=s2;secrets.DEAD_LETTER_DIGEST_KEY=d2`,
  smallRevision: `smallRevision:${SMALL};secretsRevision=7`,
  largeRevision: `largeRevision:${LARGE};secretsRevision=2025-06-rotation`,
  webhooksFromCidr: `webhooksFromCidr:${SMALL};networkPolicy.webhooksFrom[0].ipBlock.cidr=203.0.113.0/24`,
  badCidr: `badCidr:${LARGE};networkPolicy.egress.provider.to[0].ipBlock.cidr=203.0.113.0/33`,
  openEgress: `openEgress:${LARGE},${valuesFile('open-egress', 'networkPolicy: { egress: { postgres: { to: [], ports: [{ port: 5432 }] } } }')}`,
  portlessEgress: `portlessEgress:${LARGE},${valuesFile('portless-egress', 'networkPolicy: { egress: { kafka: { ports: [] } } }')}`,
  mixedPeer: `mixedPeer:${LARGE};networkPolicy.webhooksFrom[0].ipBlock.cidr=203.0.113.0/24`,
  oldHttpFrom: `oldHttpFrom:${LARGE};networkPolicy.httpFrom[0].podSelector.matchLabels.app=x`,
  large: `large:${LARGE}`,
  noWebhooks: `noWebhooks:${LARGE};roles.webhooks.enabled=false`,
  missingSecret: `missingSecret:${CHART}/values-small.yaml;deploymentMode=development`,
  // Production (the default) with nothing given: one message naming every gap.
  productionBare: `productionBare:${CHART}/values-small.yaml`,
  productionNoSecrets: `productionNoSecrets:${SMALL_ONLY};${DB}`,
  productionLargeNoIds: `productionLargeNoIds:${CHART}/values-large.yaml`,
  developmentSmall: `developmentSmall:${CHART}/values-small.yaml;${DB};deploymentMode=development`,
  badMode: `badMode:${SMALL};deploymentMode=staging`,
  modeInConfig: `modeInConfig:${SMALL};config.DEPLOYMENT_MODE=development`,
  modeInRoleEnv: `modeInRoleEnv:${SMALL};roles.executor.env.DEPLOYMENT_MODE=development`,
  sensitiveInConfig: `sensitiveInConfig:${LARGE};config.OPS_OPERATORS=alice:viewer:abcdef`,
  sensitiveInRoleEnv: `sensitiveInRoleEnv:${LARGE};roles.executor.env.DATABASE_URL=postgres://x`,
  misspeltRole: `misspeltRole:${LARGE};roles.exector.replicas=3`,
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

/** A peer of a policy rule: a pod (namespace and labels) or an address outside the cluster. */
type Endpoint = { ns: string; labels: Record<string, string> } | { ip: string };

function ipv4(a: string): number | undefined {
  const m = /^(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(a);
  return m ? m.slice(1).reduce((n, o) => n * 256 + Number(o), 0) : undefined;
}
function inCidr(ip: string, cidr: string): boolean {
  const [base, bits] = cidr.split('/');
  const a = ipv4(ip);
  const b = ipv4(base ?? '');
  if (a === undefined || b === undefined) return false; // an IPv6 block holds no IPv4 address
  const size = 2 ** (32 - Number(bits));
  return Math.floor(a / size) === Math.floor(b / size);
}
function peerMatches(peer: Peer, e: Endpoint): boolean {
  if ('ip' in e) {
    const block = peer.ipBlock;
    return (
      block !== undefined && inCidr(e.ip, block.cidr) && !(block.except ?? []).some((x) => inCidr(e.ip, x))
    );
  }
  if (peer.ipBlock !== undefined) return false; // pods are matched by selectors (ipBlock is for the outside)
  const nsOk =
    peer.namespaceSelector === undefined
      ? e.ns === NAMESPACE
      : matches(peer.namespaceSelector, { 'kubernetes.io/metadata.name': e.ns });
  const podOk = peer.podSelector === undefined || matches(peer.podSelector, e.labels);
  return nsOk && podOk;
}
/** Kubernetes' semantics: rules are ORed; a rule without peers admits every peer, one without ports every port. */
function ruleAdmits(
  rules: PolicyRule[],
  peers: 'from' | 'to',
  e: Endpoint,
  port: string | number,
  protocol: string,
): boolean {
  return rules.some((rule) => {
    const portOk =
      rule.ports === undefined ||
      rule.ports.some((p) => p.port === port && (p.protocol ?? 'TCP') === protocol);
    if (!portOk) return false;
    const list = rule[peers];
    return list === undefined || list.length === 0 || list.some((peer) => peerMatches(peer, e));
  });
}
/** Whether a NetworkPolicy lets `from` reach `port` (a port name) of a pod it selects. */
function admits(policy: Manifest, from: Endpoint, port: string): boolean {
  if (!(policy.spec?.policyTypes ?? ['Ingress']).includes('Ingress')) return true;
  return ruleAdmits(policy.spec?.ingress ?? [], 'from', from, port, 'TCP');
}
/** Whether a NetworkPolicy lets a pod it selects open a connection to `to` on `port`. */
function egressAdmits(policy: Manifest, to: Endpoint, port: number, protocol = 'TCP'): boolean {
  if (!(policy.spec?.policyTypes ?? []).includes('Egress')) return true;
  return ruleAdmits(policy.spec?.egress ?? [], 'to', to, port, protocol);
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

  it('refuses to render for production without the secrets, the provider ids and hosts, naming each gap once', () => {
    assert.match(
      renderError('productionBare'),
      /deploymentMode=production needs secrets\.DATABASE_URL, secrets\.LEDGER_ENCRYPTION_KEY, secrets\.PROVIDER_CLIENT_SECRET, secrets\.DEAD_LETTER_DIGEST_KEY, config\.PROVIDER_CLIENT_ID, config\.LEDGER_ENCRYPTION_KEY_ID, config\.PROVIDER_BASE_URL \(the provider's production host, not the placeholder\), config\.PROVIDER_PAYOUT_URL/,
    );
    assert.match(
      renderError('productionBare'),
      /deploymentMode=development runs on the built-in development values/,
    );
    assert.match(
      renderError('productionNoSecrets'),
      /deploymentMode=production needs secrets\.LEDGER_ENCRYPTION_KEY, secrets\.PROVIDER_CLIENT_SECRET, secrets\.DEAD_LETTER_DIGEST_KEY\. /,
    );
    // existingSecret: the chart cannot read it (the pods check it at boot), but the config it can.
    assert.match(
      renderError('productionLargeNoIds'),
      /deploymentMode=production needs config\.PROVIDER_CLIENT_ID, config\.LEDGER_ENCRYPTION_KEY_ID, config\.PROVIDER_BASE_URL/,
    );
    assert.match(renderError('badMode'), /deploymentMode/);
    assert.match(renderError('modeInConfig'), /set deploymentMode, not config\.DEPLOYMENT_MODE/);
    assert.match(
      renderError('modeInRoleEnv'),
      /set deploymentMode, not roles\.executor\.env\.DEPLOYMENT_MODE/,
    );
    for (const name of ['small', 'large'])
      assert.equal(
        one(rendered(name), 'ConfigMap', 'payouts-config').data?.['DEPLOYMENT_MODE'],
        'production',
      );
  });

  it('renders for development only when asked, with DEPLOYMENT_MODE=development in every pod', () => {
    const ms = rendered('developmentSmall');
    assert.equal(one(ms, 'ConfigMap', 'payouts-config').data?.['DEPLOYMENT_MODE'], 'development');
    assert.deepEqual(Object.keys(ms.find((m) => m.kind === 'Secret')?.stringData ?? {}), ['DATABASE_URL']);
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
          'DEAD_LETTER_DIGEST_KEY',
          'LEDGER_ENCRYPTION_KEY',
          'PROVIDER_CLIENT_SECRET',
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

  it('admits to the HTTP port (/ops, /metrics) only labelled operator pods and Prometheus; the webhooks port takes ingress', () => {
    const opsClient = { ns: NAMESPACE, labels: { 'payouts/ops-client': 'true' } };
    for (const name of ['small', 'large', 'noWebhooks']) {
      const ms = rendered(name);
      const policy = one(ms, 'NetworkPolicy', 'payouts');
      for (const d of [...ofKind(ms, 'Deployment'), one(ms, 'Job', 'payouts-migrate')]) {
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
      assert.equal(
        admits(policy, neighbour, 'http'),
        false,
        `${name}: /ops from an unlabelled pod of the namespace`,
      );
      assert.equal(
        admits(policy, { ...outsider, labels: opsClient.labels }, 'http'),
        false,
        `${name}: the label in another namespace`,
      );
      assert.equal(admits(policy, opsClient, 'http'), true, `${name}: a labelled operator pod`);
      assert.equal(admits(policy, prometheus, 'http'), true, `${name}: Prometheus scrapes /metrics`);
      const ingress = { ns: 'ingress-nginx', labels: {} };
      if (name === 'small') {
        assert.equal(admits(policy, outsider, 'webhooks'), true, 'webhooks from anywhere');
        assert.equal(
          admits(policy, { ip: '203.0.113.9' }, 'webhooks'),
          true,
          'webhooks from outside the cluster',
        );
      }
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
      assert.equal(
        admits(policy, { ip: '203.0.113.9' }, 'http'),
        false,
        `${name}: /ops from outside the cluster`,
      );
    }
    // The provider posting from its own addresses (a LoadBalancer that keeps the client's address).
    const cidr = one(rendered('webhooksFromCidr'), 'NetworkPolicy', 'payouts');
    assert.equal(admits(cidr, { ip: '203.0.113.9' }, 'webhooks'), true, "webhooks from the provider's range");
    assert.equal(admits(cidr, { ip: '198.51.100.9' }, 'webhooks'), false, 'webhooks from elsewhere');
    assert.equal(
      admits(cidr, { ip: '203.0.113.9' }, 'http'),
      false,
      "the provider's range does not reach /ops",
    );
    // The Service meant for traffic from outside carries the webhooks port only.
    const pub = one(rendered('large'), 'Service', 'payouts-webhooks-public');
    assert.deepEqual(
      pub.spec?.ports?.map((p) => p.targetPort),
      ['webhooks'],
    );
  });

  it('lets pods open connections only to DNS, Postgres, Kafka, the provider and the OTLP collector', () => {
    const dns = { ns: 'kube-system', labels: { 'k8s-app': 'kube-dns' } };
    const postgres = { ns: NAMESPACE, labels: { 'app.kubernetes.io/name': 'postgresql' } };
    const kafka = { ns: NAMESPACE, labels: { 'app.kubernetes.io/name': 'kafka' } };
    const collector = { ns: 'monitoring', labels: { 'app.kubernetes.io/name': 'opentelemetry-collector' } };
    const provider = { ip: '203.0.113.10' };
    for (const name of ['small', 'large', 'noWebhooks']) {
      const policy = one(rendered(name), 'NetworkPolicy', 'payouts');
      assert.ok(policy.spec?.policyTypes?.includes('Egress'), `${name}: egress is restricted`);
      assert.equal(egressAdmits(policy, dns, 53, 'UDP'), true, `${name}: DNS over UDP`);
      assert.equal(egressAdmits(policy, dns, 53, 'TCP'), true, `${name}: DNS over TCP`);
      assert.equal(egressAdmits(policy, postgres, 5432), true, `${name}: Postgres`);
      assert.equal(egressAdmits(policy, kafka, 9092), true, `${name}: Kafka`);
      assert.equal(egressAdmits(policy, provider, 443), true, `${name}: the provider over HTTPS`);
      assert.equal(egressAdmits(policy, collector, 4318), true, `${name}: the OTLP collector`);
      // Nothing else: another pod of the namespace, the cloud's metadata service, a private address,
      // the provider on another port, Postgres on Kafka's port, the Kubernetes API.
      assert.equal(
        egressAdmits(policy, { ns: NAMESPACE, labels: { app: 'other' } }, 443),
        false,
        `${name}: another pod`,
      );
      assert.equal(egressAdmits(policy, { ip: '169.254.169.254' }, 80), false, `${name}: metadata service`);
      assert.equal(
        egressAdmits(policy, { ip: '169.254.169.254' }, 443),
        false,
        `${name}: metadata service on 443`,
      );
      assert.equal(egressAdmits(policy, { ip: '10.1.2.3' }, 443), false, `${name}: a private address`);
      assert.equal(egressAdmits(policy, provider, 22), false, `${name}: the provider on port 22`);
      assert.equal(egressAdmits(policy, postgres, 9092), false, `${name}: Postgres on Kafka's port`);
      assert.equal(
        egressAdmits(policy, { ns: 'default', labels: { component: 'apiserver' } }, 443),
        false,
        `${name}: the API server`,
      );
    }
  });

  it('refuses network peers it cannot check: a bad CIDR, a rule open to every destination or port, a mixed peer, the old httpFrom', () => {
    assert.match(renderError('badCidr'), /cidr/i);
    assert.match(renderError('openEgress'), /egress\/postgres\/to'?: minItems/);
    assert.match(renderError('portlessEgress'), /egress\/kafka\/ports'?: minItems/);
    // An ipBlock with selectors (here the large set-up's namespaceSelector) is not a valid peer.
    assert.match(renderError('mixedPeer'), /webhooksFrom\/0'?: 'oneOf' failed/);
    assert.match(renderError('oldHttpFrom'), /additional properties 'httpFrom' not allowed/);
  });

  it('rolls pods on a secret change without publishing a digest of the secret in the pod spec', () => {
    const templates = (name: string): Record<string, PodTemplate | undefined> =>
      Object.fromEntries(
        ofKind(rendered(name), 'Deployment').map((d) => [d.metadata.name, d.spec?.template]),
      );
    // Anyone who may read pod specs could test guesses at a weak secret against a digest of it.
    assert.deepEqual(
      templates('smallOtherSecrets'),
      templates('small'),
      'pod specs do not depend on secret values',
    );
    const annotation = (name: string): (string | undefined)[] =>
      ofKind(rendered(name), 'Deployment').map(
        (d) => d.spec?.template?.metadata.annotations?.['payouts/secrets-revision'],
      );
    // A chart-made Secret changes only at an upgrade: each upgrade's revision rolls the pods.
    for (const v of annotation('small')) assert.equal(v, '1', 'the release revision');
    for (const v of annotation('smallRevision')) assert.equal(v, '7', 'secretsRevision when set');
    for (const v of annotation('largeRevision'))
      assert.equal(v, '2025-06-rotation', 'secretsRevision with existingSecret');
    for (const v of annotation('large')) assert.equal(v, undefined, 'existingSecret: the chart cannot know');
    for (const name of ['small', 'large']) {
      for (const d of ofKind(rendered(name), 'Deployment')) {
        const a = d.spec?.template?.metadata.annotations ?? {};
        for (const [k, v] of Object.entries(a)) {
          if (k === 'checksum/config') continue; // the ConfigMap holds no sensitive variable
          assert.doesNotMatch(v, /^[0-9a-f]{32,}$/, `${name} ${d.metadata.name}: ${k} looks like a digest`);
        }
      }
    }
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
