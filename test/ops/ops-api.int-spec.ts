import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { eventually, operatorsEnv, startStack, type Stack } from '#test-support';

const TOKEN = 'ops-test-token-0123456789abcdef';
/** One operator of each role: the API knows each by their own token. */
const OPERATORS = operatorsEnv([
  { id: 'olga', role: 'operator', token: TOKEN },
  { id: 'vic', role: 'viewer', token: 'ops-viewer-token-0123456789abcdef' },
]);
const ACCOUNT = 'default';

interface Answer {
  status: number;
  body: Record<string, unknown>;
  text: string;
}

/** A GET from a chosen loopback address (127.0.0.0/8 is all loopback): another client, as the service sees it. */
function getFrom(
  localAddress: string,
  url: string,
  token: string | null,
): Promise<{ status: number; retryAfter: string | undefined; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { localAddress, headers: token === null ? {} : { authorization: `Bearer ${token}` } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => {
          resolve({ status: res.statusCode ?? 0, retryAfter: res.headers['retry-after'], text });
        });
      },
    );
    req.on('error', reject);
    req.end();
  });
}

// The operations API over real HTTP, on the service's own port, against the whole stack.
describe('operations API', () => {
  let stack: Stack;
  let url: string;

  const call = async (method: string, path: string, token: string | null = TOKEN): Promise<Answer> => {
    const res = await fetch(`${url}${path}`, {
      method,
      headers: token === null ? {} : { authorization: `Bearer ${token}` },
    });
    const text = await res.text();
    return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {}, text };
  };

  /** A row straight into the ledger, in a state the pipeline would take long (or forever) to reach. */
  const insertPayout = async (p: {
    transferId: string;
    kind: string;
    status: string;
    reason?: string;
    nextCheckAt?: string;
  }) => {
    await stack.sql(
      `INSERT INTO payout (account_id, transfer_id, kind, request_hash, request, amount, status, version, attempt,
                           reason, next_check_at)
       VALUES ($1, $2, $3, 'test-hash', '{}'::jsonb, '5.00', $4, 3, 1, $5, $6::timestamptz)`,
      [ACCOUNT, p.transferId, p.kind, p.status, p.reason ?? null, p.nextCheckAt ?? null],
    );
  };

  before(async () => {
    stack = await startStack({
      // "pending, then success" stays pending until the sandbox clock passes 10 minutes, and the
      // reconciler gives up after three looks: a payout reaches REQUIRES_ATTENTION in a second.
      sandbox: { pendingDelayMs: 600_000 },
      env: { OPS_OPERATORS: OPERATORS, RECONCILE_SCHEDULE: '200ms,200ms,200ms', NOT_FOUND_SETTLE_MS: '500' },
    });
    const service = await stack.startService();
    url = service.url;
  });
  after(async () => {
    await stack?.close();
  });

  describe('authentication', () => {
    it('answers 401 without a token, with a wrong one, or another scheme', async () => {
      for (const token of [null, 'wrong-token-wrong-token-wrong', `${TOKEN}x`, TOKEN.slice(0, -1)]) {
        const r = await call('GET', '/ops/requires-attention', token);
        assert.equal(r.status, 401, `token ${String(token)}`);
        assert.ok(!r.text.includes(TOKEN), 'the expected token is never echoed');
      }
      const basic = await fetch(`${url}/ops/requires-attention`, {
        headers: { authorization: `Basic ${Buffer.from(`ops:${TOKEN}`).toString('base64')}` },
      });
      assert.equal(basic.status, 401);
      assert.equal((await call('GET', '/ops/requires-attention')).status, 200);
      const hash = OPERATORS.split(',')[0]!.split(':')[2]!;
      assert.equal(
        (await call('GET', '/ops/requires-attention', hash)).status,
        401,
        'the configured hash is no token',
      );
    });

    it('a viewer reads but may not act: 403 naming the role needed, and nothing happens', async () => {
      const viewer = 'ops-viewer-token-0123456789abcdef';
      assert.equal((await call('GET', '/ops/requires-attention', viewer)).status, 200);
      const me = await call('GET', '/ops/me', viewer);
      assert.deepEqual(me.body, { id: 'vic', name: 'vic', role: 'viewer', via: 'configured', may: ['read'] });
      for (const path of [`/ops/payouts/${ACCOUNT}/x/recheck`, '/ops/outbox/x/replay']) {
        const r = await call('POST', path, viewer);
        assert.equal(r.status, 403, path);
        assert.equal(r.body['code'], 'forbidden');
      }
    });

    it('limits failed sign-ins per source address: 429 with Retry-After past the limit, even for a good token; other sources unaffected', async () => {
      const before = stack.logLines.length;
      const limited = await stack.startService({
        SERVICE_ROLES: 'queries',
        OPS_AUTH_FAILURE_LIMIT: '3',
        OPS_AUTH_FAILURE_WINDOW_MS: '60000',
        OPS_AUTH_LOG_INTERVAL_MS: '1000',
      });
      try {
        const path = `${limited.url}/ops/requires-attention`;
        const guesses = ['guess-1-guess-1-guess-1-guess', 'guess-2-guess-2-guess-2-guess', null];
        for (const token of guesses)
          assert.equal((await getFrom('127.0.0.2', path, token)).status, 401, `guess ${String(token)}`);
        const past = await getFrom('127.0.0.2', path, 'guess-4-guess-4-guess-4-guess');
        assert.equal(past.status, 429, 'past the limit');
        const retry = Number(past.retryAfter);
        assert.ok(
          Number.isInteger(retry) && retry >= 1 && retry <= 60,
          `Retry-After ${String(past.retryAfter)}`,
        );
        // No oracle: while limited, a right token is refused as a wrong one is.
        assert.equal(
          (await getFrom('127.0.0.2', path, TOKEN)).status,
          429,
          'a good token from the limited source',
        );
        // Another source signs in, and fails on its own count.
        assert.equal((await getFrom('127.0.0.3', path, TOKEN)).status, 200, 'another source signs in');
        assert.equal((await getFrom('127.0.0.3', path, 'guess-5-guess-5-guess-5-guess')).status, 401);

        // Counted by reason, with no token material.
        const metrics = await (await fetch(`${limited.url}/metrics`)).text();
        const count = (reason: string): number =>
          Number(
            new RegExp(`^payouts_ops_auth_failures_total\\{[^}]*reason="${reason}"[^}]*\\} (\\d+)`, 'm').exec(
              metrics,
            )?.[1] ?? 0,
          );
        assert.equal(
          count('unknown_token'),
          3,
          metrics
            .split('\n')
            .filter((l) => l.includes('auth_failures'))
            .join('\n'),
        );
        assert.equal(count('missing'), 1);
        assert.equal(count('limited'), 2);
        assert.ok(!/guess-|ops-test-token/.test(metrics), 'no token in the metrics');

        // Logged sampled: one line at once per source, then one with the count suppressed since.
        const lines = () =>
          stack.logLines
            .slice(before)
            .filter((l) => l.includes('operations API: failed sign-in'))
            .map((l) => JSON.parse(l) as { source?: string; suppressed?: number; reason?: string });
        const fromTwo = await eventually(
          () => {
            const l = lines().filter((x) => x.source === '127.0.0.2');
            return l.some((x) => (x.suppressed ?? 0) > 0) ? l : undefined;
          },
          { what: 'the line with the suppressed count', timeoutMs: 5_000 },
        );
        assert.equal(fromTwo.length, 2, `two lines for five failures: ${JSON.stringify(fromTwo)}`);
        assert.equal(
          fromTwo.reduce((n, x) => n + (x.reason ? 1 : 0) + (x.suppressed ?? 0), 0),
          5,
          'every failure accounted for',
        );
        assert.ok(
          lines().some((x) => x.source === '127.0.0.3'),
          'the other source has its own line',
        );
        const text = stack.logLines.slice(before).join('\n');
        assert.ok(!/guess-|ops-test-token/.test(text), 'no token in the logs');
      } finally {
        await limited.close();
        stack.services.splice(stack.services.indexOf(limited), 1);
      }
    });

    it('is off (404 everywhere) when OPS_OPERATORS is unset, and the boot log says so once', async () => {
      const before = stack.logLines.length;
      const off = await stack.startService({ OPS_OPERATORS: '', SERVICE_ROLES: 'queries' });
      try {
        for (const [method, path] of [
          ['GET', '/ops/requires-attention'],
          ['GET', `/ops/payouts/${ACCOUNT}/x`],
          ['POST', `/ops/payouts/${ACCOUNT}/x/recheck`],
          ['POST', '/ops/outbox/x/replay'],
        ] as const) {
          for (const token of [TOKEN, null]) {
            const res = await fetch(`${off.url}${path}`, {
              method,
              headers: token ? { authorization: `Bearer ${token}` } : {},
            });
            assert.equal(res.status, 404, `${method} ${path}`);
          }
        }
        const said = stack.logLines
          .slice(before)
          .filter((l) =>
            l.includes('operations API disabled (neither OPS_OPERATORS nor OIDC_ISSUER is set)'),
          );
        assert.equal(said.length, 1);
        assert.equal(
          (await fetch(`${off.url}/health/live`)).status,
          200,
          'the rest of the port still serves',
        );
      } finally {
        await off.close();
        stack.services.splice(stack.services.indexOf(off), 1);
      }
    });
  });

  describe('lookups are masked', () => {
    it('a direct transfer: status, decimal amount, provider refs, masked account; no request, no secrets', async () => {
      await stack.send({
        type: 'payout.direct_transfer',
        requestId: 'req-ops-1',
        data: {
          transferId: 'ops_dir_1',
          amount: '150',
          beneDetails: {
            name: 'A Person',
            bankAccount: '026291800001191',
            ifsc: 'YESB0000262',
            phone: '9876543210',
          },
        },
      });
      await stack.waitForStatus('ops_dir_1', 'SUCCESS');
      const r = await call('GET', `/ops/payouts/${ACCOUNT}/ops_dir_1`);
      assert.equal(r.status, 200, r.text);
      assert.equal(r.body['status'], 'SUCCESS');
      assert.equal(r.body['kind'], 'direct_transfer');
      assert.equal(r.body['amount'], '150.00');
      assert.equal(r.body['requestId'], 'req-ops-1');
      assert.equal(typeof r.body['version'], 'number');
      assert.ok(r.body['referenceId'], 'the provider reference is shown');
      assert.deepEqual(r.body['beneficiary'], { bankAccount: 'XXXXXXXXXXX1191', ifsc: 'YESB0000262' });
      assert.ok(!r.text.includes('026291800001191'), 'no full account number');
      assert.ok(!r.text.includes('9876543210'), 'no phone number');
      for (const k of ['request', 'requestSecrets', 'request_secrets', 'lastError'])
        assert.ok(!(k in r.body), `no ${k}`);
    });

    it('a card payout shows neither the card token nor the cryptogram', async () => {
      await stack.send({
        type: 'payout.card_payout',
        data: {
          transferId: 'ops_card_1',
          amount: '10.00',
          cardToken: '4718610000000001',
          cryptogram: 'ops-cryptogram-secret-value',
          cardType: 'CREDIT',
          networkType: 'VISA',
        },
      });
      // Whatever the sandbox makes of it: the row exists as soon as it is accepted.
      await stack.waitForStatus('ops_card_1', 'RECEIVED');
      const r = await call('GET', `/ops/payouts/${ACCOUNT}/ops_card_1`);
      assert.equal(r.status, 200, r.text);
      assert.ok(!r.text.includes('4718610000000001'));
      assert.ok(!r.text.includes('ops-cryptogram-secret-value'));
    });

    it('a batch with its items, account numbers masked', async () => {
      const entry = (transferId: string) => ({
        transferId,
        amount: '25.00',
        bankAccount: '026291800001191',
        ifsc: 'YESB0000262',
        name: 'Batch Person',
        phone: '9876543210',
      });
      await stack.send({
        type: 'payout.batch_transfer',
        data: {
          batchTransferId: 'ops_batch_1',
          batchFormat: 'BANK_ACCOUNT',
          entries: [entry('ops_b_1'), entry('ops_b_2')],
        },
      });
      await stack.waitForStatus('ops_batch_1', 'RECEIVED');
      const r = await call('GET', `/ops/batches/${ACCOUNT}/ops_batch_1`);
      assert.equal(r.status, 200, r.text);
      assert.equal(r.body['totalAmount'], '50.00');
      const items = r.body['items'] as Array<Record<string, unknown>>;
      assert.deepEqual(
        items.map((i) => i['transferId']),
        ['ops_b_1', 'ops_b_2'],
      );
      for (const i of items)
        assert.deepEqual(i['beneficiary'], { bankAccount: 'XXXXXXXXXXX1191', ifsc: 'YESB0000262' });
      assert.ok(!r.text.includes('026291800001191'));
      assert.ok(!r.text.includes('9876543210'));
    });

    it('unknown ids are 404 with a code; a bad limit is 400', async () => {
      const p = await call('GET', `/ops/payouts/${ACCOUNT}/no_such`);
      assert.equal(p.status, 404);
      assert.equal(p.body['code'], 'not_found');
      assert.equal((await call('GET', `/ops/batches/${ACCOUNT}/no_such`)).status, 404);
      assert.equal((await call('GET', `/ops/payouts/other-account/ops_dir_1`)).status, 404);
      for (const limit of ['0', '-1', 'abc', '100000', '1.5'])
        assert.equal((await call('GET', `/ops/requires-attention?limit=${limit}`)).status, 400, limit);
    });
  });

  describe('recheck', () => {
    it('a REQUIRES_ATTENTION payout goes back to UNKNOWN and reconciliation resumes to its true state', async () => {
      await stack.send({
        type: 'payout.direct_transfer',
        data: {
          transferId: 'ops_pending_1',
          amount: '42.10',
          beneDetails: { name: 'A Person', bankAccount: '00224412311300', ifsc: 'YESB0000001' },
        },
      });
      await stack.waitForStatus('ops_pending_1', 'PENDING');
      await stack.waitForStatus('ops_pending_1', 'REQUIRES_ATTENTION');

      const listed = await call('GET', '/ops/requires-attention?limit=50');
      assert.equal(listed.status, 200);
      const ids = (listed.body['payouts'] as Array<Record<string, unknown>>).map((p) => p['transferId']);
      assert.ok(ids.includes('ops_pending_1'), JSON.stringify(ids));
      assert.ok(!listed.text.includes('00224412311300'), 'masked in the list too');

      // Nothing changes by itself: a REQUIRES_ATTENTION row is never polled again.
      await new Promise((r) => setTimeout(r, 800));
      assert.equal(stack.eventsOf('ops_pending_1').at(-1)?.data.status, 'REQUIRES_ATTENTION');

      // The provider has settled it meanwhile.
      await stack.sandboxCall('POST', '/__sandbox/clock/advance', { seconds: 11 * 60 });
      const r = await call('POST', `/ops/payouts/${ACCOUNT}/ops_pending_1/recheck`);
      assert.equal(r.status, 202, r.text);
      assert.equal(r.body['action'], 'reopened');
      const view = r.body['payout'] as Record<string, unknown>;
      assert.equal(view['status'], 'UNKNOWN');
      assert.equal(view['reason'], 'operator_recheck');
      assert.equal(view['checkCount'], 0);

      await stack.waitForStatus('ops_pending_1', 'SUCCESS');
      const statuses = stack.eventsOf('ops_pending_1').map((e) => e.data.status);
      assert.deepEqual(statuses.slice(-3), ['REQUIRES_ATTENTION', 'UNKNOWN', 'SUCCESS']);
      const reopened = stack.eventsOf('ops_pending_1').find((e) => e.data.status === 'UNKNOWN');
      assert.equal(reopened?.data.reason, 'operator_recheck');
      const received = (await stack.sandboxCall('GET', '/__sandbox/received?transferId=ops_pending_1')) as {
        initiations: unknown[];
      };
      assert.equal(received.initiations.length, 1, 'checked, not sent again');
      assert.ok(
        stack.logLines.some(
          (l) =>
            l.includes('"transferId":"ops_pending_1"') &&
            l.includes('"to":"UNKNOWN"') &&
            l.includes('payout state changed'),
        ),
        'the operator transition is logged',
      );
    });

    it('an internal transfer in doubt is only status-checked, never sent again: unknown to the provider, it goes back to a person (four eyes), never FAILED by itself', async () => {
      // In doubt: the provider may or may not have it, and does not deduplicate internal transfers.
      await insertPayout({
        transferId: 'ops_int_doubt',
        kind: 'internal_transfer',
        status: 'REQUIRES_ATTENTION',
        reason: 'in_doubt_resend_unsafe',
      });
      const r = await call('POST', `/ops/payouts/${ACCOUNT}/ops_int_doubt/recheck`);
      assert.equal(r.status, 202, r.text);
      // The sandbox never saw it: "not found", and again NOT_FOUND_SETTLE_MS later. One operator's
      // recheck must not reach the automatic FAILED (not_received_by_provider): it goes back to a
      // person, who proposes and another approves (ADR 0016, 0018). Never sent again.
      await eventually(
        () =>
          stack
            .eventsOf('ops_int_doubt')
            .map((e) => e.data.status)
            .join(',') === 'UNKNOWN,REQUIRES_ATTENTION' || undefined,
        { what: 'UNKNOWN then REQUIRES_ATTENTION', timeoutMs: 15_000 },
      );
      assert.equal(stack.eventsOf('ops_int_doubt').at(-1)?.data.reason, 'not_received_needs_four_eyes');
      await new Promise((res) => setTimeout(res, 500));
      const received = (await stack.sandboxCall('GET', '/__sandbox/received?transferId=ops_int_doubt')) as {
        initiations: unknown[];
      };
      assert.equal(received.initiations.length, 0, 'never re-sent');
      const [row] = await stack.sql<{ status: string; attempt: number }>(
        `SELECT status, attempt FROM payout WHERE transfer_id = 'ops_int_doubt'`,
      );
      assert.deepEqual(row, { status: 'REQUIRES_ATTENTION', attempt: 1 });
      assert.ok(!stack.eventsOf('ops_int_doubt').some((e) => e.data.status === 'FAILED'), 'never FAILED');
    });

    it('a contradiction is listed in the queue until acknowledged; one operator alone only proposes that (a second person confirms: four-eyes-humans); the payout is not changed', async () => {
      await insertPayout({ transferId: 'ops_contra', kind: 'internal_transfer', status: 'FAILED' });
      // A contradiction as the ledger step records it (PayoutLedger.contradict; its own tests
      // cover the event and the history row): here only the queue and the acknowledgement.
      const [c] = await stack.sql<{ id: string }>(
        `INSERT INTO payout_contradiction (payout_id, account_id, transfer_id, version, kind, published, observed, source, event_id)
         SELECT id, account_id, transfer_id, version, 'paid_after_failure', status, 'SUCCESS', 'reconciler',
                'payout/' || account_id || '/' || transfer_id || ':' || version || ':contradicted:success'
           FROM payout WHERE transfer_id = 'ops_contra' RETURNING id::text`,
      );
      const queued = await call('GET', '/ops/requires-attention');
      const listed = (queued.body['contradictions'] as Array<Record<string, unknown>>).find(
        (x) => x['transferId'] === 'ops_contra',
      );
      assert.deepEqual(
        [listed?.['id'], listed?.['published'], listed?.['observed'], listed?.['kind']],
        [c!.id, 'FAILED', 'SUCCESS', 'paid_after_failure'],
      );
      const path = `/ops/contradictions/${c!.id}/acknowledge`;
      assert.equal(
        (await call('POST', path, 'ops-viewer-token-0123456789abcdef')).status,
        403,
        'a viewer may not',
      );
      const ack = await call('POST', path);
      assert.equal(ack.status, 202, ack.text);
      assert.deepEqual([ack.body['acknowledgementProposedBy'], ack.body['acknowledgedBy']], ['olga', null]);
      assert.equal((await call('POST', path)).status, 409, 'once per person: it waits for a second');
      const after = await call('GET', '/ops/requires-attention');
      assert.ok(
        (after.body['contradictions'] as Array<Record<string, unknown>>).some(
          (x) => x['transferId'] === 'ops_contra' && x['acknowledgementProposedBy'] === 'olga',
        ),
        'still in the queue: one person does not clear it',
      );
      const [row] = await stack.sql<{ status: string; version: number }>(
        `SELECT status, version FROM payout WHERE transfer_id = 'ops_contra'`,
      );
      assert.deepEqual(row, { status: 'FAILED', version: 3 });
      const actions = await stack.sql<{ operator_id: string; result: string }>(
        `SELECT operator_id, result FROM operator_action WHERE action = 'acknowledge' ORDER BY id`,
      );
      assert.deepEqual(
        actions.map((a) => `${a.operator_id}:${a.result}`),
        ['olga:awaiting_confirmation', 'olga:conflict'],
      );
    });

    it('a self withdrawal in doubt cannot be rechecked (no status endpoint): 409', async () => {
      await insertPayout({
        transferId: 'ops_wd_doubt',
        kind: 'self_withdrawal',
        status: 'REQUIRES_ATTENTION',
      });
      const r = await call('POST', `/ops/payouts/${ACCOUNT}/ops_wd_doubt/recheck`);
      assert.equal(r.status, 409, r.text);
      assert.equal(r.body['code'], 'no_status_endpoint');
      const [row] = await stack.sql<{ status: string; version: number }>(
        `SELECT status, version FROM payout WHERE transfer_id = 'ops_wd_doubt'`,
      );
      assert.deepEqual(row, { status: 'REQUIRES_ATTENTION', version: 3 });
    });

    it('a PENDING payout is made due now (same state, no event); the reconciler looks at it', async () => {
      await insertPayout({
        transferId: 'ops_pending_later',
        kind: 'standard_transfer',
        status: 'PENDING',
        nextCheckAt: new Date(Date.now() + 3_600_000).toISOString(),
      });
      const r = await call('POST', `/ops/payouts/${ACCOUNT}/ops_pending_later/recheck`);
      assert.equal(r.status, 202, r.text);
      assert.equal(r.body['action'], 'scheduled');
      assert.equal((r.body['payout'] as Record<string, unknown>)['status'], 'PENDING');
      await eventually(
        async () => {
          const [row] = await stack.sql<{ check_count: number }>(
            `SELECT check_count FROM payout WHERE transfer_id = 'ops_pending_later'`,
          );
          return row && row.check_count > 0 ? row : undefined;
        },
        { what: 'a reconciler check', timeoutMs: 10_000 },
      );
    });

    it('a final payout is 409 with a clear message; an unknown one is 404', async () => {
      const r = await call('POST', `/ops/payouts/${ACCOUNT}/ops_dir_1/recheck`);
      assert.equal(r.status, 409);
      assert.equal(r.body['code'], 'terminal');
      assert.match(String(r.body['detail']), /SUCCESS, a final state/);
      assert.equal((await call('POST', `/ops/payouts/${ACCOUNT}/no_such/recheck`)).status, 404);
    });
  });

  describe('dead outbox rows', () => {
    const insertOutbox = async (eventId: string, key: string, state: string, availableAt = 'now()') => {
      const payload = {
        specversion: '1.0',
        id: eventId,
        type: 'payouts.payout.succeeded',
        source: 'urn:payouts:payout-service',
        time: new Date().toISOString(),
        subject: key,
        datacontenttype: 'application/json',
        data: { accountId: ACCOUNT, id: key, kind: 'standard_transfer', status: 'SUCCESS', version: 9 },
      };
      await stack.sql(
        `INSERT INTO outbox (message_key, event_id, event_type, topic, payload, state, attempts, available_at)
         VALUES ($1, $2, 'payouts.payout.succeeded', 'payouts.events', $3::jsonb, $4, 15, ${availableAt})`,
        [key, eventId, JSON.stringify(payload), state],
      );
    };

    it('replays a dead row: it is published; replaying again is 404', async () => {
      await insertOutbox('ops_dead_1:9', 'ops_dead_1', 'dead');
      const r = await call('POST', '/ops/outbox/ops_dead_1:9/replay');
      assert.equal(r.status, 202, r.text);
      await eventually(() => stack.events.find((e) => e.id === 'ops_dead_1:9'), {
        what: 'the replayed event',
      });
      const again = await call('POST', '/ops/outbox/ops_dead_1:9/replay');
      assert.equal(again.status, 404);
      assert.equal(again.body['code'], 'not_found');
    });

    it('a dead head with a pending copy of its event behind it: the replay unblocks the key, the event is published once', async () => {
      // The copy was re-emitted by a duplicate command while the head was dead; a later event follows.
      await insertOutbox('ops_dead_2:9', 'ops_dead_2', 'dead');
      await insertOutbox('ops_dead_2:9', 'ops_dead_2', 'pending');
      await insertOutbox('ops_dead_2:10', 'ops_dead_2', 'pending');
      const r = await call('POST', '/ops/outbox/ops_dead_2:9/replay');
      assert.equal(r.status, 202, r.text);
      await eventually(() => stack.events.find((e) => e.id === 'ops_dead_2:10'), {
        what: 'the event after the replayed one',
      });
      assert.deepEqual(
        stack.events.filter((e) => e.id.startsWith('ops_dead_2:')).map((e) => e.id),
        ['ops_dead_2:9', 'ops_dead_2:10'],
      );
    });

    it('takes an event id of the service’s own form (key with slashes, URL-encoded)', async () => {
      const id = 'payout/default/ops_dead_3:9';
      await insertOutbox(id, 'payout/default/ops_dead_3', 'dead');
      const r = await call('POST', `/ops/outbox/${encodeURIComponent(id)}/replay`);
      assert.equal(r.status, 202, r.text);
      assert.equal(r.body['replayed'], id);
      await eventually(() => stack.events.find((e) => e.id === id), { what: 'the replayed event' });
    });

    it('404 for an unknown event id', async () => {
      assert.equal((await call('POST', '/ops/outbox/nothing:1/replay')).status, 404);
    });
  });
});
