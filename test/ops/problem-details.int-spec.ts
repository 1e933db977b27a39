import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { PROBLEM_TITLES } from '#operations';
import { operatorsEnv, startStack, type Stack } from '#test-support';
import { type ServiceApp } from '../../apps/payout-service/src/bootstrap.js';

const OPERATOR = 'problem-operator-token-0123456789';
const VIEWER = 'problem-viewer-token-0123456789ab';
const ACCOUNT = 'default';

interface Reply {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly text: string;
}

/** One request from a chosen loopback address (each case its own source: the refusal limits are per address). */
function send(
  base: string,
  method: string,
  path: string,
  o: { from: string; token?: string; body?: string | Buffer; contentType?: string },
): Promise<Reply> {
  const headers: Record<string, string> = {};
  if (o.token) headers['authorization'] = `Bearer ${o.token}`;
  if (o.body !== undefined) headers['content-type'] = o.contentType ?? 'application/json';
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, { method, headers, localAddress: o.from }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
    });
    // A server that answers before reading a large body may close the socket under the write.
    req.on('error', (e: NodeJS.ErrnoException) =>
      e.code === 'EPIPE' || e.code === 'ECONNRESET' ? undefined : reject(e),
    );
    req.end(o.body);
  });
}

/** The answer is RFC 9457 problem details, consistent with its status, for this path. */
function assertProblem(r: Reply, status: number, code: string, path: string, what: string): void {
  assert.equal(r.status, status, `${what}: ${r.text}`);
  assert.match(String(r.headers['content-type']), /^application\/problem\+json/, what);
  const p = JSON.parse(r.text) as Record<string, unknown>;
  assert.deepEqual(
    Object.keys(p).sort(),
    ['code', 'detail', 'instance', 'status', 'title', 'type'],
    `${what}: ${r.text}`,
  );
  assert.equal(p['status'], status, what);
  assert.equal(p['code'], code, `${what}: ${r.text}`);
  assert.equal(p['type'], `urn:payouts:problem:${code}`, what);
  assert.equal(p['title'], PROBLEM_TITLES[code], what);
  assert.equal(p['instance'], path.split('?')[0], what);
  assert.ok(typeof p['detail'] === 'string' && p['detail'].length > 0, what);
}

describe('problem details (RFC 9457) for every HTTP error of /ops and of the webhook listener', () => {
  let stack: Stack;
  let service: ServiceApp;
  let host = 10;
  /** A fresh loopback source address per case. */
  const from = () => `127.0.0.${++host}`;

  before(async () => {
    stack = await startStack({
      env: {
        OPS_OPERATORS: operatorsEnv([
          { id: 'olga', role: 'operator', token: OPERATOR },
          { id: 'vic', role: 'viewer', token: VIEWER },
        ]),
        OPS_AUTH_FAILURE_LIMIT: '2',
        SERVICE_ROLES: 'intake,executor,reconciler,relay,queries,webhooks',
        WEBHOOKS_PORT: '0',
        WEBHOOKS_REFUSALS_PER_SOURCE: '2',
        WEBHOOKS_MAX_BODY_BYTES: '4096',
      },
    });
    service = await stack.startService();
    await stack.sql(
      `INSERT INTO payout (account_id, transfer_id, kind, request_hash, request, amount, status, version, attempt)
       VALUES ($1, 'paid_1', 'standard_transfer', 'h', '{}'::jsonb, '5.00', 'SUCCESS', 3, 1)`,
      [ACCOUNT],
    );
  });
  after(async () => {
    await stack?.close();
  });

  it('/ops: unknown route, bad JSON, bad cursor, bad limit, no token, wrong role, not found, conflict, too large, unsupported media type, rate limited', async () => {
    const proposals = `/ops/payouts/${ACCOUNT}/paid_1/proposals`;
    const cases: Array<[string, string, string, Parameters<typeof send>[3], number, string]> = [
      ['unknown route', 'GET', '/ops/nothing-here', { from: from(), token: OPERATOR }, 404, 'not_found'],
      ['unknown route, no token', 'DELETE', '/ops/payouts', { from: from() }, 404, 'not_found'],
      [
        'bad JSON',
        'POST',
        proposals,
        { from: from(), token: OPERATOR, body: '{"outcome":' },
        400,
        'bad_request',
      ],
      [
        'bad cursor',
        'GET',
        '/ops/dead-letters?cursor=zzz',
        { from: from(), token: OPERATOR },
        400,
        'invalid_input',
      ],
      [
        'bad limit',
        'GET',
        '/ops/outbox/dead?limit=0',
        { from: from(), token: OPERATOR },
        400,
        'invalid_input',
      ],
      [
        'bad search',
        'GET',
        '/ops/payouts?status=LOST',
        { from: from(), token: OPERATOR },
        400,
        'invalid_input',
      ],
      ['no token', 'GET', '/ops/requires-attention', { from: from() }, 401, 'unauthorized'],
      ['wrong token', 'GET', '/ops/me', { from: from(), token: `${OPERATOR}x` }, 401, 'unauthorized'],
      ['wrong role', 'POST', '/ops/outbox/x/replay', { from: from(), token: VIEWER }, 403, 'forbidden'],
      [
        'not found',
        'GET',
        `/ops/payouts/${ACCOUNT}/nobody`,
        { from: from(), token: OPERATOR },
        404,
        'not_found',
      ],
      [
        'conflict',
        'POST',
        `/ops/payouts/${ACCOUNT}/paid_1/recheck`,
        { from: from(), token: OPERATOR },
        409,
        'terminal',
      ],
      [
        'too large',
        'POST',
        proposals,
        { from: from(), token: OPERATOR, body: `{"note":"${'x'.repeat(1_100_000)}"}` },
        413,
        'payload_too_large',
      ],
      [
        'unsupported media type',
        'POST',
        proposals,
        { from: from(), token: OPERATOR, body: '<xml/>', contentType: 'application/xml' },
        415,
        'unsupported_media_type',
      ],
    ];
    for (const [what, method, path, o, status, code] of cases) {
      assertProblem(await send(service.url, method, path, o), status, code, path, what);
    }
    const unauthorized = await send(service.url, 'GET', '/ops/me', { from: from() });
    assert.equal(unauthorized.headers['www-authenticate'], 'Bearer');

    // Past OPS_AUTH_FAILURE_LIMIT failed sign-ins from one address: 429 with Retry-After, a problem too.
    const source = from();
    for (let i = 0; i < 2; i += 1) {
      assert.equal(
        (await send(service.url, 'GET', '/ops/me', { from: source, token: `guess-${i}` })).status,
        401,
      );
    }
    const limited = await send(service.url, 'GET', '/ops/me', { from: source, token: OPERATOR });
    assertProblem(limited, 429, 'too_many_requests', '/ops/me', 'rate limited');
    assert.match(String(limited.headers['retry-after']), /^[1-9][0-9]*$/);

    // Success is untouched: JSON as before.
    const me = await send(service.url, 'GET', '/ops/me', { from: from(), token: OPERATOR });
    assert.equal(me.status, 200);
    assert.match(String(me.headers['content-type']), /^application\/json/);
    // Other paths keep their own bodies (health answers its report).
    const health = await send(service.url, 'GET', '/nothing', { from: from() });
    assert.equal(health.status, 404);
    assert.match(String(health.headers['content-type']), /^application\/json/);
  });

  it('/ops while the API is off (no operator configured): 404 problem details', async () => {
    const off = await stack.startService({ OPS_OPERATORS: '', SERVICE_ROLES: 'queries' });
    try {
      for (const path of ['/ops/me', `/ops/payouts/${ACCOUNT}/x`]) {
        assertProblem(
          await send(off.url, 'GET', path, { from: from(), token: OPERATOR }),
          404,
          'not_found',
          path,
          path,
        );
      }
    } finally {
      await off.close();
      stack.services.splice(stack.services.indexOf(off), 1);
    }
  });

  it('the webhook listener: unknown path, unknown account, bad signature, too large, rate limited', async () => {
    const base = service.webhooksUrl ?? '';
    assert.ok(base, 'the webhooks role opens its listener');
    const v2 = `/webhooks/v2/${ACCOUNT}`;
    const cases: Array<[string, string, string, Parameters<typeof send>[3], number, string]> = [
      ['unknown path', 'POST', '/hooks', { from: from(), body: '{}' }, 404, 'not_found'],
      ['a GET', 'GET', v2, { from: from() }, 404, 'not_found'],
      ['unknown account', 'POST', '/webhooks/v2/nobody', { from: from(), body: '{}' }, 404, 'not_found'],
      [
        'no signature',
        'POST',
        v2,
        { from: from(), body: JSON.stringify({ type: 'TRANSFER_SUCCESS' }) },
        401,
        'bad_signature',
      ],
      ['too large', 'POST', v2, { from: from(), body: 'x'.repeat(8_000) }, 413, 'payload_too_large'],
    ];
    for (const [what, method, path, o, status, code] of cases) {
      assertProblem(await send(base, method, path, o), status, code, path, what);
    }
    const source = from();
    for (let i = 0; i < 2; i += 1)
      assert.equal((await send(base, 'POST', v2, { from: source, body: '{}' })).status, 401);
    const limited = await send(base, 'POST', v2, { from: source, body: '{}' });
    assertProblem(limited, 429, 'rate_limited', v2, 'rate limited');
    assert.match(String(limited.headers['retry-after']), /^[1-9][0-9]*$/);
  });
});
