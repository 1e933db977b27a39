import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { opsOpenApi } from '../openapi.js';
import { type Operator } from '../operators.js';
import { type OpsTokens } from '../sign-in/ops-tokens.js';
import { OPERATIONS_USE_CASES, type OperationsUseCases } from '../use-cases/index.js';
import { type OpsRoute, type OpsServices, routerPath } from './ops-route.js';
import { OPS_ROUTES } from './routes.js';

type Row = Record<string, unknown>;

const who: Operator = {
  id: 'ann',
  name: 'Ann',
  role: 'approver',
  via: { kind: 'configured' },
} as unknown as Operator;

/** Runs a route on services that only record which use case (or token call) it reaches for. */
async function reached(route: OpsRoute): Promise<string[]> {
  const seen: string[] = [];
  const stub = (name: string) =>
    new Proxy(
      {},
      {
        get: (_, method) => {
          seen.push(`${name}.${String(method)}`);
          return () => Promise.resolve({});
        },
      },
    );
  const useCases = new Proxy({}, { get: (_, name) => stub(String(name)) }) as OperationsUseCases;
  const services: OpsServices = {
    useCases,
    tokens: stub('tokens') as OpsTokens,
    openApi: () => ({}),
  };
  const params = Object.fromEntries([...route.path.matchAll(/\{(\w+)\}/g)].map((m) => [m[1]!, 'x']));
  if ('kind' in params) params['kind'] = 'payouts';
  try {
    await route.run(services, { who, params, query: {}, body: {} });
  } catch {
    // A body the route refuses: what it reached for before is what this test wants.
  }
  return seen;
}

describe('the operations route registry', () => {
  it('names each route once, and each method and path once', () => {
    const names = OPS_ROUTES.map((r) => r.name);
    assert.equal(new Set(names).size, names.length);
    const routes = OPS_ROUTES.map((r) => `${r.method} ${routerPath(r)}`);
    assert.equal(new Set(routes).size, routes.length);
  });

  it("describes each route's path parameters, in the path's order", () => {
    for (const r of OPS_ROUTES) {
      const inPath = [...r.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      const described = (r.parameters ?? [])
        .filter((p) => (p as Row)['in'] === 'path')
        .map((p) => (p as Row)['name']);
      assert.deepEqual(described, inPath, r.name);
    }
  });

  it('runs every use case from some route, and each route reaches one thing', async () => {
    const all = new Set<string>();
    for (const r of OPS_ROUTES) {
      const seen = await reached(r);
      assert.ok(seen.length <= 1, `${r.name} reaches ${seen.join(', ')}`);
      for (const s of seen) all.add(s.split('.')[0]!);
    }
    const missing = Object.keys(OPERATIONS_USE_CASES).filter((k) => !all.has(k));
    assert.deepEqual(missing, [], 'use cases no route runs');
  });

  it('is the OpenAPI document: every route once, with its least role, and every $ref resolves', () => {
    const doc = opsOpenApi() as Row;
    const paths = doc['paths'] as Record<string, Record<string, Row>>;
    let n = 0;
    for (const [path, ops] of Object.entries(paths))
      for (const [method, op] of Object.entries(ops)) {
        n++;
        const r = OPS_ROUTES.find((x) => x.path === path && x.method === method);
        assert.ok(r, `${method} ${path} is a route`);
        assert.ok(op['x-required-role'], `${method} ${path}: role`);
      }
    assert.equal(n, OPS_ROUTES.length);
    const schemas = (doc['components'] as Row)['schemas'] as Row;
    const refs = [...JSON.stringify(doc).matchAll(/"#\/components\/schemas\/(\w+)"/g)].map((m) => m[1]!);
    for (const name of new Set(refs)) assert.ok(schemas[name], `${name} is a component`);
  });
});
