import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import { parse } from 'yaml';

// No Docker daemon runs where `npm test` runs, so `docker compose config` cannot check
// docker-compose.yml: it is validated against the Compose Specification's JSON Schema (vendored:
// test/deploy/compose-spec.md says from where and why), then checked for what the schema cannot
// see: images or builds, mounted files, host ports, dependencies, and the traces path.

const ROOT = resolve(import.meta.dirname, '../../..');
const SCHEMA_PATH = resolve(ROOT, 'test/deploy/compose-spec.json');
const SCHEMA_SHA256 = '1f91e091f16b2dd50ab8860e02bb391d22df553d91c145eacedb1b6eff9c3f0e';

interface ComposeService {
  image?: string;
  build?: string | { context?: string; dockerfile?: string };
  command?: string[];
  environment?: Record<string, string | number>;
  ports?: (string | { published?: string | number; target: number })[];
  volumes?: (string | { type: string; source?: string })[];
  depends_on?: Record<string, { condition: string }> | string[];
}
interface Compose {
  services: Record<string, ComposeService>;
  volumes?: Record<string, unknown>;
}

function schemaValidator(): ValidateFunction {
  const text = readFileSync(SCHEMA_PATH);
  assert.equal(
    createHash('sha256').update(text).digest('hex'),
    SCHEMA_SHA256,
    'the vendored schema is unchanged',
  );
  // strict: false: the schema uses keywords ajv does not know (e.g. `deprecated`), which are
  // annotations. Its $schema (draft-07, ajv's default dialect) is named by a URL ajv does not map.
  const schema = JSON.parse(text.toString('utf8')) as Record<string, unknown>;
  assert.match(String(schema['$schema']), /draft-07/);
  delete schema['$schema'];
  const ajv = new Ajv({ allErrors: true, strict: false, allowUnionTypes: true });
  return ajv.compile(schema);
}

/**
 * The file as compose reads it: YAML merge keys (`<<: *service`) applied. The top-level `x-`
 * extension (the anchors' home) is dropped, as compose ignores it.
 */
function loadCompose(): Compose {
  const doc = parse(readFileSync(resolve(ROOT, 'docker-compose.yml'), 'utf8'), { merge: true }) as Record<
    string,
    unknown
  >;
  for (const k of Object.keys(doc)) if (k.startsWith('x-')) delete doc[k];
  return doc as unknown as Compose;
}

/** The service's roles, one container each, as the Helm chart runs one Deployment per role. */
const ROLES = ['intake', 'executor', 'reconciler', 'relay', 'queries', 'webhooks'] as const;

/**
 * Compose's interpolation (the Compose Specification, "Interpolation"): $$, $VAR, ${VAR},
 * ${VAR:-default}, ${VAR-default}, ${VAR:?error}, ${VAR?error}, ${VAR:+alt}, ${VAR+alt}. The
 * errors are what `docker compose config` stops with (no Docker CLI runs where the tests run).
 */
function interpolate(text: string, env: Readonly<Record<string, string>>, errors: string[]): string {
  return text.replace(
    /\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?+])([^}]*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)/g,
    (whole, name?: string, op?: string, arg?: string, bare?: string) => {
      if (whole === '$$') return '$';
      const key = name ?? bare ?? '';
      const value = env[key];
      const unset = op?.startsWith(':') ? !value : value === undefined;
      switch (op?.replace(':', '')) {
        case '-':
          return unset ? (arg ?? '') : (value ?? '');
        case '?':
          if (unset) errors.push(`required variable ${key} is missing a value: ${arg ?? ''}`);
          return value ?? '';
        case '+':
          return unset ? '' : (arg ?? '');
        default:
          return value ?? '';
      }
    },
  );
}

/** As compose does: the YAML parsed first, then every string in it interpolated. */
function renderCompose(env: Readonly<Record<string, string>>): { compose: Compose; errors: string[] } {
  const errors: string[] = [];
  const walk = (v: unknown): unknown =>
    typeof v === 'string'
      ? interpolate(v, env, errors)
      : Array.isArray(v)
        ? v.map(walk)
        : v !== null && typeof v === 'object'
          ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]))
          : v;
  return { compose: walk(loadCompose()) as Compose, errors };
}

function dependencies(svc: ComposeService): string[] {
  return Array.isArray(svc.depends_on) ? svc.depends_on : Object.keys(svc.depends_on ?? {});
}

function hostPorts(svc: ComposeService): string[] {
  return (svc.ports ?? []).map((p) => {
    if (typeof p !== 'string') return String(p.published ?? '');
    const parts = p.split(':');
    // host:container or ip:host:container; a bare container port publishes nothing fixed.
    return parts.length >= 2 ? (parts[parts.length - 2] ?? '') : '';
  });
}

describe('docker-compose.yml against the Compose Specification', () => {
  const validate = schemaValidator();

  it('is valid against the schema', () => {
    const ok = validate(loadCompose());
    assert.ok(ok, JSON.stringify(validate.errors, null, 2));
  });

  it('the schema check can fail: a misspelt key and an unknown depends_on condition are refused', () => {
    const bad = loadCompose() as unknown as { services: Record<string, Record<string, unknown>> };
    const service = bad.services['intake'];
    assert.ok(service);
    service['enviroment'] = { LOG_LEVEL: 'info' };
    assert.equal(validate(bad), false);
    delete service['enviroment'];
    assert.equal(validate(bad), true);
    service['depends_on'] = { kafka: { condition: 'service_ready' } };
    assert.equal(validate(bad), false);
  });

  it('gives every service an image or a build whose Dockerfile exists, and mounts files that exist', () => {
    const compose = loadCompose();
    for (const [name, svc] of Object.entries(compose.services)) {
      assert.ok(svc.image ?? svc.build, `${name} has an image or a build`);
      if (svc.build !== undefined) {
        const ctx = typeof svc.build === 'string' ? svc.build : (svc.build.context ?? '.');
        const df = typeof svc.build === 'string' ? 'Dockerfile' : (svc.build.dockerfile ?? 'Dockerfile');
        assert.ok(existsSync(resolve(ROOT, ctx, df)), `${name}: ${ctx}/${df} exists`);
      }
      if (svc.image !== undefined)
        assert.match(svc.image, /^[a-z0-9./_-]+:[A-Za-z0-9._-]+$/, `${name}: pinned tag`);
      for (const v of svc.volumes ?? []) {
        const source = typeof v === 'string' ? v.split(':')[0] : v.source;
        if (source?.startsWith('./')) {
          assert.ok(statSync(resolve(ROOT, source)).isFile(), `${name} mounts ${source}, which exists`);
        } else if (source) {
          assert.ok(compose.volumes?.[source] !== undefined, `${name}: named volume ${source} is declared`);
        }
      }
    }
  });

  it('publishes no host port twice and points every depends_on at a defined service', () => {
    const compose = loadCompose();
    const seen = new Map<string, string>();
    for (const [name, svc] of Object.entries(compose.services)) {
      for (const port of hostPorts(svc).filter((p) => p !== '')) {
        assert.equal(seen.get(port), undefined, `host port ${port}: ${seen.get(port)} and ${name}`);
        seen.set(port, name);
      }
      for (const dep of dependencies(svc)) assert.ok(compose.services[dep], `${name} -> ${dep}`);
    }
  });

  it('runs one container per role, as the Helm chart does, each sending its traces to the collector', () => {
    const compose = loadCompose();
    const chart = parse(readFileSync(resolve(ROOT, 'deploy/helm/payouts/values.yaml'), 'utf8')) as {
      roles: Record<string, unknown>;
    };
    assert.deepEqual(Object.keys(chart.roles).sort(), [...ROLES].sort(), 'the chart has the same roles');
    const byRole = Object.entries(compose.services).filter(([, svc]) => svc.environment?.['SERVICE_ROLES']);
    assert.deepEqual(
      byRole.map(([, svc]) => String(svc.environment?.['SERVICE_ROLES'])).sort(),
      [...ROLES].sort(),
      'one container per role, each with one role',
    );
    for (const [name, svc] of byRole) assert.equal(name, svc.environment?.['SERVICE_ROLES'], name);
    // The sandbox's webhooks reach the webhooks role; Prometheus scrapes every role.
    const hook = new URL(String(compose.services['sandbox']?.environment?.['SANDBOX_WEBHOOK_URL']));
    assert.equal(hook.hostname, 'webhooks');
    assert.equal(hook.port, String(compose.services['webhooks']?.environment?.['WEBHOOKS_PORT']));
    const prom = parse(readFileSync(resolve(ROOT, 'deploy/prometheus.yml'), 'utf8')) as {
      scrape_configs: Array<{ static_configs: Array<{ targets: string[] }> }>;
    };
    const targets = prom.scrape_configs.flatMap((c) => c.static_configs.flatMap((t) => t.targets));
    assert.deepEqual(targets.sort(), ROLES.map((r) => `${r}:3000`).sort());

    const env = compose.services['intake']?.environment ?? {};
    const endpoint = new URL(String(env['OTEL_EXPORTER_OTLP_ENDPOINT']));
    for (const role of ROLES) {
      const e = compose.services[role]?.environment ?? {};
      assert.equal(e['OTEL_EXPORTER_OTLP_ENDPOINT'], env['OTEL_EXPORTER_OTLP_ENDPOINT'], role);
      assert.ok(dependencies(compose.services[role] ?? {}).includes(endpoint.hostname), role);
    }
    assert.equal(env['OTEL_SERVICE_NAME'], 'payout-service');
    // The service's exporter is OTLP over HTTP (JSON, @opentelemetry/exporter-trace-otlp-http).
    assert.equal(endpoint.protocol, 'http:');
    assert.ok(compose.services[endpoint.hostname], `${endpoint.hostname} is a compose service`);

    const collector = parse(readFileSync(resolve(ROOT, 'deploy/otel/collector.yaml'), 'utf8')) as {
      receivers: { otlp: { protocols: Record<string, { endpoint: string }> } };
      exporters: Record<string, { endpoint?: string }>;
      service: { pipelines: Record<string, { receivers: string[]; exporters: string[] }> };
    };
    // OTLP/HTTP goes to the receiver's http protocol, on the endpoint's port.
    assert.equal(collector.receivers.otlp.protocols['http']?.endpoint, `0.0.0.0:${endpoint.port}`);
    const traces = collector.service.pipelines['traces'];
    assert.ok(traces, 'a traces pipeline');
    assert.ok(traces.receivers.includes('otlp'));
    const jaegerExporter = traces.exporters.find((e) => e.startsWith('otlp/'));
    assert.ok(jaegerExporter, 'the traces pipeline exports over OTLP');
    const target = collector.exporters[jaegerExporter]?.endpoint ?? '';
    const [host] = target.split(':');
    assert.ok(host && compose.services[host], `the collector exports to the compose service ${host}`);
    assert.ok(dependencies(compose.services[endpoint.hostname] ?? {}).includes(host));
    assert.ok(hostPorts(compose.services[host] ?? {}).includes('16686'), 'the Jaeger UI is published');
  });

  it('refuses to start without the secrets (${VAR:?message}): none has a value in the file', () => {
    const { errors } = renderCompose({});
    assert.deepEqual([...new Set(errors.map((e) => /variable (\w+)/.exec(e)?.[1]))].sort(), [
      'LEDGER_ENCRYPTION_KEY',
      'OPS_OPERATORS',
      'POSTGRES_PASSWORD',
      'PROVIDER_CLIENT_SECRET',
    ]);
    for (const e of errors) assert.match(e, /missing a value: set \w+/, 'each says what to set');

    // Every sensitive variable the service reads comes from the environment, never the file.
    const doc = readFileSync(resolve(ROOT, 'docs/CONFIGURATION.md'), 'utf8');
    const sensitive = [...doc.matchAll(/^\| `([A-Z0-9_]+)` \| [^|]* \| yes \|/gm)].map((m) => m[1] ?? '');
    assert.ok(sensitive.includes('LEDGER_ENCRYPTION_KEY'), 'parsed docs/CONFIGURATION.md');
    const raw = loadCompose();
    for (const [name, svc] of Object.entries(raw.services))
      for (const [key, value] of Object.entries(svc.environment ?? {}))
        if (sensitive.includes(key) || key.endsWith('_SECRET') || key.endsWith('PASSWORD'))
          assert.match(
            String(value),
            /\$\{[A-Z_]+:\?[^}]+\}|^\$\{[A-Z_]+:-\}$/,
            `${name}: ${key} is required from the environment (or empty: off)`,
          );
  });

  it('with the secrets set, every role runs in development against the sandbox, with an operator and the key', () => {
    const env = {
      LEDGER_ENCRYPTION_KEY: 'k',
      PROVIDER_CLIENT_SECRET: 's3cret',
      POSTGRES_PASSWORD: 'pw',
      OPS_OPERATORS: 'admin:approver:abc',
    };
    const { compose, errors } = renderCompose(env);
    assert.deepEqual(errors, []);
    for (const role of ROLES) {
      const service = compose.services[role]?.environment ?? {};
      assert.equal(
        service['DEPLOYMENT_MODE'],
        'development',
        `${role}: chosen explicitly, the image says production`,
      );
      assert.equal(service['PROVIDER_CLIENT_SECRET'], 's3cret', role);
      assert.equal(service['DATABASE_URL'], 'postgres://postgres:pw@postgres:5432/payouts', role);
      assert.equal(service['LEDGER_ENCRYPTION_KEY'], 'k', role);
      assert.equal(service['OPS_OPERATORS'], 'admin:approver:abc', role);
    }
    assert.equal(compose.services['sandbox']?.environment?.['SANDBOX_CLIENT_SECRET'], 's3cret');
    assert.equal(
      compose.services['migrate']?.environment?.['DATABASE_URL'],
      compose.services['intake']?.environment?.['DATABASE_URL'],
    );
    assert.equal(compose.services['postgres']?.environment?.['POSTGRES_PASSWORD'], 'pw');
    assert.match(readFileSync(resolve(ROOT, 'Dockerfile'), 'utf8'), /^ENV .*DEPLOYMENT_MODE=production/m);
  });
});
