import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import 'reflect-metadata';
import fc from 'fast-check';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants.js';
import { RequestMethod } from '@nestjs/common';
import { OpsController } from '../../apps/payout-service/src/ops.controller.js';
import { FAST_RECONCILE, operatorsEnv, startStack, type Stack } from '#test-support';

const ACCOUNT = 'default';
const TOKENS = {
  vera: 'vera-viewer-token-0123456789abcdef',
  otto: 'otto-operator-token-0123456789abcdef',
  anna: 'anna-approver-token-0123456789abcdef',
  abel: 'abel-approver-token-0123456789abcdef',
} as const;
type Who = keyof typeof TOKENS;

interface Answer {
  status: number;
  body: Record<string, unknown>;
  text: string;
}
type Row = Record<string, unknown>;

// The operator's side over real HTTP against a whole stack: the durable history the ledger
// writes, search and export, timelines, and four-eyes settlement.
describe('operator side', () => {
  let stack: Stack;
  let url: string;

  const call = async (who: Who, method: string, path: string, body?: object): Promise<Answer> => {
    const res = await fetch(`${url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${TOKENS[who]}`,
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    const json = res.headers.get('content-type')?.includes('json') && text;
    return { status: res.status, body: json ? (JSON.parse(text) as Row) : {}, text };
  };

  /** A row straight into the ledger, in a state the pipeline would take long to reach. */
  const insertPayout = async (transferId: string, status: string, request: object = {}) => {
    await stack.sql(
      `INSERT INTO payout (account_id, transfer_id, kind, request_hash, request, amount, status, version, attempt, reason)
       VALUES ($1, $2, 'direct_transfer', 'h', $3::jsonb, '5.00', $4, 4, 1, 'reconciliation_schedule_exhausted')`,
      [ACCOUNT, transferId, JSON.stringify(request), status],
    );
  };

  before(async () => {
    stack = await startStack({
      env: {
        ...FAST_RECONCILE,
        // The attention watch (issue 29), fast: only rows the reconciler itself handed over.
        ATTENTION_WATCH_SCHEDULE: '300ms',
        OPS_OPERATORS: operatorsEnv([
          { id: 'vera', role: 'viewer', token: TOKENS.vera },
          { id: 'otto', role: 'operator', token: TOKENS.otto },
          { id: 'anna', role: 'approver', token: TOKENS.anna },
          { id: 'abel', role: 'approver', token: TOKENS.abel },
        ]),
      },
    });
    url = (await stack.startService()).url;
  });
  after(async () => {
    await stack?.close();
  });

  describe('durable history', () => {
    it('a payout that goes PENDING then SUCCESS: one row per change with its cause, in the timeline', async () => {
      await stack.send({
        type: 'payout.direct_transfer',
        data: {
          transferId: 'hist_1',
          amount: '42.10',
          beneDetails: { name: 'A Person', bankAccount: '00224412311300', ifsc: 'YESB0000001' },
        },
      });
      const done = await stack.waitForStatus('hist_1', 'SUCCESS');
      const t = await call('vera', 'GET', `/ops/payouts/${ACCOUNT}/hist_1/timeline`);
      assert.equal(t.status, 200, t.text);
      const history = t.body['history'] as Row[];
      assert.deepEqual(
        history.map((h) => [h['from'], h['to'], h['version'], h['cause']]),
        [
          [null, 'RECEIVED', 1, 'intake'],
          ['RECEIVED', 'SUBMITTING', 2, 'executor'],
          ['SUBMITTING', 'PENDING', 3, 'executor'],
          ['PENDING', 'SUCCESS', 4, 'reconciler'],
        ],
      );
      const last = history[history.length - 1]!;
      assert.equal(last['utr'], done.data.utr, 'the provider references of the change');
      assert.ok(last['referenceId']);
      assert.ok(history.every((h) => h['operatorId'] === null));
      assert.equal((t.body['payout'] as Row)['status'], 'SUCCESS');
      assert.ok(!t.text.includes('00224412311300'), 'no full account number in the timeline');
      // Kept past the outbox: the published events may be purged, the history stays.
      await stack.sql(`DELETE FROM outbox WHERE message_key LIKE '%hist_1'`);
      const again = await call('vera', 'GET', `/ops/payouts/${ACCOUNT}/hist_1/timeline`);
      assert.equal((again.body['history'] as Row[]).length, 4);
    });

    it('a batch and its entries have their history, with the batch submitter as executor', async () => {
      await stack.send({
        type: 'payout.batch_transfer',
        data: {
          batchTransferId: 'hist_batch',
          batchFormat: 'BANK_ACCOUNT',
          entries: [
            {
              transferId: 'hb_1',
              amount: '1.00',
              name: 'P',
              bankAccount: '026291800001191',
              ifsc: 'YESB0000262',
              phone: '9876543210',
            },
          ],
        },
      });
      await stack.waitForStatus('hist_batch', 'COMPLETED');
      const t = await call('vera', 'GET', `/ops/batches/${ACCOUNT}/hist_batch/timeline`);
      assert.equal(t.status, 200, t.text);
      const rows = (t.body['history'] as Row[]).map(
        (h) => `${String(h['subject'])} ${String(h['from'])}>${String(h['to'])} ${String(h['cause'])}`,
      );
      assert.equal(rows[0], 'batch null>RECEIVED intake');
      assert.equal(rows[1], 'batch RECEIVED>SUBMITTING executor');
      assert.ok(rows.includes('batch_entry RECEIVED>SUCCESS reconciler'), rows.join('; '));
      assert.equal(rows[rows.length - 1]?.endsWith('>COMPLETED reconciler'), true, rows.join('; '));
      assert.ok(!t.text.includes('026291800001191'));
    });
  });

  describe('search', () => {
    const page = async (q: string) => {
      const r = await call('vera', 'GET', `/ops/payouts?${q}`);
      assert.equal(r.status, 200, `${q}: ${r.text}`);
      return r.body as { items: Row[]; nextCursor: string | null };
    };
    /** Every page of a search, following nextCursor; `between` runs after each page. */
    const all = async (q: string, limit: number, between?: () => Promise<void>) => {
      const out: Row[] = [];
      let cursor: string | null = null;
      for (let n = 0; n < 1000; n++) {
        const p: { items: Row[]; nextCursor: string | null } = await page(
          `${q}&limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`,
        );
        out.push(...p.items);
        if (between) await between();
        if (!p.nextCursor) return out;
        cursor = p.nextCursor;
      }
      throw new Error('no end of pages');
    };

    before(async () => {
      // 240 rows over 3 accounts, 4 statuses, 2 kinds, UTRs on some, created over 10 days.
      await stack.sql(
        `INSERT INTO payout (account_id, transfer_id, kind, request_hash, request, amount, status, utr, created_at)
         SELECT 'acc_' || (g % 3), 'srch_' || lpad(g::text, 4, '0') || CASE WHEN g % 5 = 0 THEN '_x' ELSE '' END,
                CASE WHEN g % 2 = 0 THEN 'direct_transfer' ELSE 'standard_transfer' END, 'h',
                jsonb_build_object('beneDetails', jsonb_build_object('bankAccount', '9988776655' || lpad(g::text, 4, '0'), 'ifsc', 'YESB0000262')),
                '1.00', (ARRAY['SUCCESS','FAILED','PENDING','REQUIRES_ATTENTION'])[1 + g % 4],
                CASE WHEN g % 7 = 0 THEN 'UTR' || g ELSE NULL END,
                timestamptz '2026-01-01' + (g % 10) * interval '1 day'
           FROM generate_series(1, 240) g`,
      );
    });

    it('each filter narrows the list as its SQL twin does', async () => {
      const cases: Array<[string, string]> = [
        ['status=PENDING,FAILED', `status IN ('PENDING','FAILED')`],
        ['kind=standard_transfer', `kind = 'standard_transfer'`],
        ['account=acc_1', `account_id = 'acc_1'`],
        ['from=2026-01-03&to=2026-01-05', `created_at >= '2026-01-03' AND created_at < '2026-01-05'`],
        ['utr=UTR77', `utr = 'UTR77'`],
        ['transferIdPrefix=srch_01', `transfer_id LIKE 'srch\\_01%'`],
        ['transferIdPrefix=srch_', `transfer_id LIKE 'srch\\_%'`],
        [
          'account=acc_2&status=SUCCESS&kind=direct_transfer',
          `account_id = 'acc_2' AND status = 'SUCCESS' AND kind = 'direct_transfer'`,
        ],
      ];
      for (const [q, where] of cases) {
        const want = await stack.sql<{ transfer_id: string }>(
          `SELECT transfer_id FROM payout WHERE ${where} AND transfer_id LIKE 'srch%' ORDER BY created_at DESC, id DESC`,
        );
        const got = (await all(q.includes('transferIdPrefix') ? q : `${q}&transferIdPrefix=srch`, 500)).map(
          (r) => r['transferId'],
        );
        assert.ok(want.length > 0, `${q} selects something`);
        assert.deepEqual(
          got,
          want.map((w) => w.transfer_id),
          q,
        );
      }
    });

    it('% and _ in a prefix are literal', async () => {
      assert.equal((await page('transferIdPrefix=srch%25')).items.length, 0);
      assert.equal((await page('transferIdPrefix=s_ch')).items.length, 0);
    });

    it('property: pages concatenated are the filtered list, newest first, without duplicates, also while rows are added', async () => {
      let added = 0;
      await fc.assert(
        fc.asyncProperty(
          fc.record({
            limit: fc.integer({ min: 1, max: 40 }),
            status: fc.subarray(['SUCCESS', 'FAILED', 'PENDING', 'REQUIRES_ATTENTION']),
            account: fc.option(fc.constantFrom('acc_0', 'acc_1', 'acc_2'), { nil: undefined }),
            concurrent: fc.boolean(),
          }),
          async ({ limit, status, account, concurrent }) => {
            const q = [
              'transferIdPrefix=srch',
              status.length ? `status=${status.join(',')}` : '',
              account ? `account=${account}` : '',
            ]
              .filter(Boolean)
              .join('&');
            const before = (await all(q, 500)).map((r) => r['transferId'] as string);
            const insert = async () => {
              const n = ++added;
              // Matches every filter above: new rows come first (higher ids), never into a later page.
              await stack.sql(
                `INSERT INTO payout (account_id, transfer_id, kind, request_hash, request, amount, status)
                 VALUES ($1, $2, 'direct_transfer', 'h', '{}'::jsonb, '1.00', $3)`,
                [account ?? 'acc_0', `srch_new_${n}`, status[0] ?? 'SUCCESS'],
              );
            };
            const paged = (await all(q, limit, concurrent ? insert : undefined)).map(
              (r) => r['transferId'] as string,
            );
            assert.equal(new Set(paged).size, paged.length, 'no duplicates');
            if (concurrent) {
              // Rows committed while paging land before the cursor: the pages are the list as it
              // was when paging started.
              assert.deepEqual(paged.slice(paged.length - before.length), before);
              assert.ok(paged.slice(0, paged.length - before.length).every((t) => t.startsWith('srch_new_')));
            } else assert.deepEqual(paged, before);
          },
        ),
        { numRuns: 20 },
      );
    });

    it("a batch's entries are searched with batch=", async () => {
      const r = await page('batch=hist_batch');
      assert.deepEqual(
        r.items.map((i) => [i['transferId'], i['batchTransferId'], i['kind']]),
        [['hb_1', 'hist_batch', 'batch_entry']],
      );
      assert.deepEqual(r.items[0]?.['beneficiary'], { bankAccount: 'XXXXXXXXXXX1191', ifsc: 'YESB0000262' });
    });

    it('refuses a bad filter with 400 and a code', async () => {
      for (const q of ['status=PAID', 'from=soon', 'limit=0', 'cursor=zzz', 'utr=a&utr=b']) {
        const r = await call('vera', 'GET', `/ops/payouts?${q}`);
        assert.equal(r.status, 400, q);
        assert.equal(r.body['code'], 'invalid_input');
      }
    });

    it('exports a filtered list as streamed CSV: masked, formula-safe, every row once', async () => {
      await insertPayout('=cmd|calc', 'FAILED', { beneDetails: { bankAccount: '123456789012', ifsc: 'X' } });
      await stack.sql(`UPDATE payout SET reason = '@SUM(1+1)' WHERE transfer_id = '=cmd|calc'`);
      const res = await fetch(`${url}/ops/payouts/export.csv?status=FAILED`, {
        headers: { authorization: `Bearer ${TOKENS.vera}` },
      });
      assert.equal(res.status, 200);
      assert.match(res.headers.get('content-type') ?? '', /^text\/csv/);
      assert.equal(res.headers.get('transfer-encoding'), 'chunked', 'streamed, not buffered whole');
      const text = await res.text();
      const lines = text.trimEnd().split('\r\n');
      assert.match(lines[0]!, /^accountId,transferId,batchTransferId,kind,status/);
      const want = await stack.sql<{ n: string }>(`SELECT count(*) AS n FROM payout WHERE status = 'FAILED'`);
      assert.equal(lines.length - 1, Number(want[0]!.n), 'a row per payout, past one export page');
      assert.ok(!/9988776655\d{4}/.test(text), 'no full account number');
      assert.ok(!text.includes('123456789012'));
      assert.ok(text.includes('"XXXXXXXX9012"'), 'masked account numbers');
      const evil = lines.find((l) => l.includes('cmd|calc'))!;
      assert.ok(evil.includes(`"'=cmd|calc"`) && evil.includes(`"'@SUM(1+1)"`), evil);
      assert.equal((await call('vera', 'GET', '/ops/payouts/export.csv?kind=nope')).status, 400);
    });
  });

  describe('four-eyes settlement', () => {
    const propose = (who: Who, id: string, body: object) =>
      call(who, 'POST', `/ops/payouts/${ACCOUNT}/${id}/proposals`, body);

    it('a viewer cannot propose; an operator proposes; self-approval is refused; another approver approves and the event follows', async () => {
      await insertPayout('fe_1', 'REQUIRES_ATTENTION', {
        beneDetails: { bankAccount: '026291800001191', ifsc: 'YESB0000262' },
      });
      const body = {
        outcome: 'SUCCESS',
        utr: 'UTR000111222',
        note: 'bank statement 026291800001191 shows it',
        version: 4,
      };
      const refused = await propose('vera', 'fe_1', body);
      assert.equal(refused.status, 403);
      assert.equal(refused.body['code'], 'forbidden');

      const p = await propose('anna', 'fe_1', body);
      assert.equal(p.status, 201, p.text);
      assert.equal(p.body['state'], 'open');
      assert.equal(p.body['proposedBy'], 'anna');
      assert.ok(!p.text.includes('026291800001191'), 'an account number typed in a note is masked');
      const id = p.body['id'] as string;

      const second = await propose('otto', 'fe_1', body);
      assert.equal(second.status, 409, 'one open proposal per payout');
      assert.equal(second.body['code'], 'proposal_open');

      const self = await call('anna', 'POST', `/ops/proposals/${id}/approve`, {});
      assert.equal(self.status, 403, 'nobody approves their own proposal');
      const byOperator = await call('otto', 'POST', `/ops/proposals/${id}/approve`, {});
      assert.equal(byOperator.status, 403, 'an operator is no approver');
      const still = await call('vera', 'GET', `/ops/payouts/${ACCOUNT}/fe_1`);
      assert.equal(still.body['status'], 'REQUIRES_ATTENTION', 'nothing moved');

      const ok = await call('abel', 'POST', `/ops/proposals/${id}/approve`, { note: 'checked' });
      assert.equal(ok.status, 200, ok.text);
      assert.equal(ok.body['state'], 'approved');
      assert.equal(ok.body['decidedBy'], 'abel');
      const event = await stack.waitForStatus('fe_1', 'SUCCESS');
      assert.equal(event.type, 'payouts.payout.succeeded');
      assert.equal(event.data.utr, 'UTR000111222');
      assert.equal(event.data.reason, 'settled_by_operator');
      assert.equal(event.data.version, 5);

      const t = await call('vera', 'GET', `/ops/payouts/${ACCOUNT}/fe_1/timeline`);
      const h = (t.body['history'] as Row[]).at(-1)!;
      assert.deepEqual(
        [h['from'], h['to'], h['cause'], h['operatorId'], h['approverId'], h['proposalId'], h['utr']],
        ['REQUIRES_ATTENTION', 'SUCCESS', 'operator', 'anna', 'abel', id, 'UTR000111222'],
      );
      assert.deepEqual(
        (t.body['actions'] as Row[]).map((a) => [a['operatorId'], a['action'], a['result']]),
        [
          ['anna', 'propose', 'proposed'],
          ['otto', 'propose', 'proposal_open'],
          ['anna', 'approve', 'forbidden'],
          ['abel', 'approve', 'approved'],
        ],
        'every action, refused ones too (the role refusal of otto happens at the door, before the use case)',
      );
      const again = await call('anna', 'POST', `/ops/proposals/${id}/reject`, { note: 'late' });
      assert.equal(again.status, 409, 'decided: nobody decides it again');
      const decided = await call('abel', 'POST', `/ops/proposals/${id}/reject`, {});
      assert.equal(decided.status, 409);
      assert.equal(decided.body['code'], 'proposal_decided');
    });

    it('a proposal on a version the row has left is refused; one the row moved away from is closed stale on approval', async () => {
      await insertPayout('fe_2', 'REQUIRES_ATTENTION');
      const old = await propose('otto', 'fe_2', {
        outcome: 'FAILED',
        note: 'provider says failed',
        version: 3,
      });
      assert.equal(old.status, 409);
      assert.equal(old.body['code'], 'concurrent_change');

      const p = await propose('otto', 'fe_2', {
        outcome: 'FAILED',
        note: 'provider says failed',
        version: 4,
      });
      assert.equal(p.status, 201, p.text);
      // The row moves on meanwhile (an operator's recheck reopens it).
      const re = await call('otto', 'POST', `/ops/payouts/${ACCOUNT}/fe_2/recheck`);
      assert.equal(re.status, 202, re.text);
      const a = await call('anna', 'POST', `/ops/proposals/${p.body['id'] as string}/approve`, {});
      assert.equal(a.status, 409);
      assert.equal(a.body['code'], 'concurrent_change');
      const list = await call('vera', 'GET', '/ops/proposals?state=stale');
      assert.ok((list.body['items'] as Row[]).some((x) => x['id'] === p.body['id']));
      assert.notEqual((await call('vera', 'GET', `/ops/payouts/${ACCOUNT}/fe_2`)).body['status'], 'FAILED');
      const t = await call('vera', 'GET', `/ops/payouts/${ACCOUNT}/fe_2/timeline`);
      const reopened = (t.body['history'] as Row[]).find((h) => h['to'] === 'UNKNOWN');
      assert.deepEqual(
        [reopened?.['cause'], reopened?.['operatorId']],
        ['operator', 'otto'],
        'the recheck, with who',
      );
    });

    it('a rejection moves nothing; a new proposal may follow; refusals say why', async () => {
      await insertPayout('fe_3', 'REQUIRES_ATTENTION');
      const p = await propose('otto', 'fe_3', { outcome: 'FAILED', note: 'n', version: 4 });
      const r = await call('anna', 'POST', `/ops/proposals/${p.body['id'] as string}/reject`, {
        note: 'no evidence',
      });
      assert.equal(r.status, 200, r.text);
      assert.equal(r.body['state'], 'rejected');
      assert.equal(
        (await call('vera', 'GET', `/ops/payouts/${ACCOUNT}/fe_3`)).body['status'],
        'REQUIRES_ATTENTION',
      );
      for (const bad of [
        { outcome: 'REVERSED', note: 'n', version: 4 },
        { outcome: 'SUCCESS', note: 'no utr', version: 4 },
        { outcome: 'FAILED', note: '', version: 4 },
        { outcome: 'FAILED', note: 'n' },
      ]) {
        const x = await propose('otto', 'fe_3', bad);
        assert.equal(x.status, 400, JSON.stringify(bad));
      }
      const notAttention = await propose('otto', 'hist_1', { outcome: 'FAILED', note: 'n', version: 4 });
      assert.equal(notAttention.body['code'], 'not_requiring_attention');
      assert.equal(
        (await propose('otto', 'fe_3', { outcome: 'FAILED', note: 'again', version: 4 })).status,
        201,
      );
      assert.equal((await call('vera', 'GET', `/ops/proposals/x1/approve`)).status, 404);
    });
  });

  describe('the attention watch (issue 29)', () => {
    it('a payout the provider settles while a person has it leaves the queue, the history says why, and an open proposal can no longer be decided', async () => {
      // The sandbox holds this one PENDING: the fast schedule hands it to a person.
      await stack.send({
        type: 'payout.direct_transfer',
        data: {
          transferId: 'aw_1',
          amount: '10.00',
          beneDetails: {
            name: 'A Person',
            phone: '9876543210',
            bankAccount: '007711000031',
            ifsc: 'HDFC0000077',
          },
        },
      });
      const ra = await stack.waitForStatus('aw_1', 'REQUIRES_ATTENTION', 30_000);
      const queue = await call('vera', 'GET', '/ops/requires-attention?limit=200');
      assert.ok((queue.body['payouts'] as Row[]).some((x) => x['transferId'] === 'aw_1'));
      const p = await call('otto', 'POST', `/ops/payouts/${ACCOUNT}/aw_1/proposals`, {
        outcome: 'FAILED',
        note: 'looks failed to me',
        version: ra.data.version,
      });
      assert.equal(p.status, 201, p.text);

      // The provider pays it meanwhile.
      const t = stack.sandbox.world.account.transfers.get('aw_1');
      assert.ok(t, 'the sandbox has the transfer');
      t.steps.push({ at: stack.sandbox.world.clock.now(), status: 'SUCCESS', statusCode: '200', reason: '' });
      const ok = await stack.waitForStatus('aw_1', 'SUCCESS', 20_000);
      assert.equal(ok.data.reason, 'settled_by_provider_while_waiting');

      const a = await call('anna', 'POST', `/ops/proposals/${p.body['id'] as string}/approve`, {});
      assert.equal(a.status, 409, 'the stale-version guard: the row moved on');
      assert.equal(a.body['code'], 'concurrent_change');
      assert.equal((await call('vera', 'GET', `/ops/payouts/${ACCOUNT}/aw_1`)).body['status'], 'SUCCESS');
      const after = await call('vera', 'GET', '/ops/requires-attention?limit=200');
      assert.ok(
        !(after.body['payouts'] as Row[]).some((x) => x['transferId'] === 'aw_1'),
        'the queue row closed',
      );
      const tl = await call('vera', 'GET', `/ops/payouts/${ACCOUNT}/aw_1/timeline`);
      const settled = (tl.body['history'] as Row[]).find((h) => h['to'] === 'SUCCESS');
      assert.deepEqual(
        [settled?.['from'], settled?.['cause'], settled?.['reason']],
        ['REQUIRES_ATTENTION', 'reconciler', 'settled_by_provider_while_waiting'],
      );
    });
  });

  describe('the OpenAPI document', () => {
    it('is served, equals the checked-in file, and has every route of the controller with its role', async () => {
      const served = await call('vera', 'GET', '/ops/openapi.json');
      assert.equal(served.status, 200);
      const file = await readFile(new URL('../../../docs/ops-openapi.json', import.meta.url), 'utf8');
      assert.deepEqual(served.body, JSON.parse(file));
      const paths = served.body['paths'] as Record<string, Record<string, Row>>;
      // The routes as Nest knows them (its route metadata): one added without a document entry fails here.
      const controllers: Array<[object, string]> = [[OpsController.prototype, '/ops']];
      const routes = controllers.flatMap(([prototype, prefix]) => {
        const proto = prototype as unknown as Record<string, object>;
        return Object.getOwnPropertyNames(proto)
          .filter((n) => n !== 'constructor' && Reflect.hasMetadata(PATH_METADATA, proto[n]!))
          .map((n) => {
            const path = String(Reflect.getMetadata(PATH_METADATA, proto[n]!)).replace(/:(\w+)/g, '{$1}');
            const method = String(
              RequestMethod[Reflect.getMetadata(METHOD_METADATA, proto[n]!) as number],
            ).toLowerCase();
            return {
              method,
              path: path === '/' ? prefix : `${prefix}/${path}`,
              action: Reflect.getMetadata('ops-action', proto[n]!) as string | undefined,
            };
          });
      });
      assert.ok(routes.length >= 15, `found the routes (${routes.length})`);
      for (const r of routes) {
        const op = paths[r.path]?.[r.method];
        assert.ok(op, `${r.method} ${r.path} is documented`);
        const want = {
          read: 'viewer',
          recheck: 'operator',
          replay: 'operator',
          propose: 'operator',
          acknowledge: 'operator',
          beneficiary: 'operator',
          decide: 'approver',
          approve_payout: 'operator',
          cancel_held: 'operator',
          tokens: 'approver',
        }[r.action ?? 'read'];
        assert.equal(op['x-required-role'], want, `${r.method} ${r.path}: role`);
      }
      assert.equal(
        Object.values(paths).reduce((n, p) => n + Object.keys(p).length, 0),
        routes.length,
        'and nothing documented that does not exist',
      );
    });
  });
});
