import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { FundsRepository } from '#ledger';
import { operatorsEnv, startStack, type Stack } from '#test-support';
import { parseExposition, valueOf } from '../observability/prom-text.js';

const VIEWER = 'funds-viewer-token-0123456789abcdef';
const OPERATORS = operatorsEnv([{ id: 'vera', role: 'viewer', token: VIEWER }]);

interface PlanNode {
  readonly 'Node Type': string;
  readonly 'Relation Name'?: string;
  readonly Plans?: readonly PlanNode[];
}
const nodes = (n: PlanNode): PlanNode[] => [n, ...(n.Plans ?? []).flatMap(nodes)];

/** When the held payouts and batches were held (held_since is kept after a row leaves the hold). */
const HELD_AT = {
  oldest: '2026-11-27T06:00:00.000Z',
  payout: '2026-11-27T07:30:00.000Z',
  batch: '2026-11-27T07:00:00.000Z',
  // Held once, sent since: in flight now, its held_since is not the account's oldest held.
  sent: '2026-11-26T00:00:00.000Z',
};

/** Payouts of the default account, one per status: the funds view counts only the live ones. */
const PAYOUTS: ReadonlyArray<
  [account: string, id: string, status: string, amount: string, heldSince?: string, reason?: string]
> = [
  ['default', 'f_recv_1', 'RECEIVED', '100.10'],
  ['default', 'f_recv_2', 'RECEIVED', '0.05'],
  ['default', 'f_appr', 'AWAITING_APPROVAL', '2500.00'],
  ['default', 'f_sub', 'SUBMITTING', '10.01', HELD_AT.sent],
  ['default', 'f_held_1', 'HELD_FOR_FUNDS', '300.00', HELD_AT.oldest, 'insufficient_funds'],
  ['default', 'f_held_2', 'HELD_FOR_FUNDS', '0.25', HELD_AT.payout, 'insufficient_funds'],
  ['default', 'f_pend', 'PENDING', '20.02'],
  ['default', 'f_unk', 'UNKNOWN', '30.03'],
  ['default', 'f_att', 'REQUIRES_ATTENTION', '40.04'],
  ['default', 'f_succ', 'SUCCESS', '999.99'],
  ['default', 'f_fail', 'FAILED', '888.88'],
  ['default', 'f_rej', 'REJECTED', '777.77'],
  ['default', 'f_rev', 'REVERSED', '666.66'],
  // The second account: sums a float would get wrong (0.1 + 0.2), and one near NUMERIC(14,2)'s top.
  ['acc2', 'g_pend', 'PENDING', '0.10'],
  ['acc2', 'g_sub', 'SUBMITTING', '0.20'],
  ['acc2', 'g_unk', 'UNKNOWN', '999999999999.99'],
  ['acc2', 'g_succ', 'SUCCESS', '5.00'],
  // An account no longer configured, with a payout still waiting: shown, not dropped.
  ['gone', 'h_recv', 'RECEIVED', '1.23'],
];

/** Batches of the default account with their entries' statuses and amounts. */
const BATCHES: ReadonlyArray<
  [id: string, status: string, entries: ReadonlyArray<[string, string]>, heldSince?: string, reason?: string]
> = [
  // In flight: the entries not final (PENDING, RECEIVED: no answer yet, ERROR: in doubt).
  [
    'fb_proc',
    'PROCESSING',
    [
      ['SUCCESS', '5.00'],
      ['PENDING', '6.00'],
      ['RECEIVED', '7.00'],
      ['FAILED', '8.00'],
      ['ERROR', '9.00'],
    ],
  ],
  [
    'fb_sub',
    'SUBMITTING',
    [
      ['RECEIVED', '14.00'],
      ['RECEIVED', '15.00'],
    ],
    HELD_AT.sent,
  ],
  // Held for funds: every entry, and the batch's held_since.
  [
    'fb_held',
    'HELD_FOR_FUNDS',
    [
      ['RECEIVED', '3.00'],
      ['RECEIVED', '4.00'],
    ],
    HELD_AT.batch,
    'no_balance_reading',
  ],
  // Waiting: every entry.
  [
    'fb_recv',
    'RECEIVED',
    [
      ['RECEIVED', '1.00'],
      ['RECEIVED', '2.00'],
    ],
  ],
  ['fb_appr', 'AWAITING_APPROVAL', [['RECEIVED', '50.00']]],
  // Not counted: settled entries of a completed batch, a batch the provider refused whole.
  [
    'fb_done',
    'COMPLETED',
    [
      ['SUCCESS', '11.00'],
      ['REVERSED', '12.00'],
    ],
  ],
  ['fb_failed', 'FAILED', [['RECEIVED', '13.00']]],
];

/**
 * Default: in flight 10.01 + 20.02 + 30.03 + 40.04 (payouts) + 6 + 7 + 9 + 14 + 15 (entries);
 * queued 100.10 + 0.05 + 1 + 2; awaiting approval 2500 + 50; held for funds 300 + 0.25 (payouts)
 * + 3 + 4 (entries), the oldest held at 06:00. Only default holds for funds (FUNDS_HOLD).
 */
const EXPECTED = [
  {
    accountId: 'acc2',
    inFlight: { count: 3, amount: '1000000000000.29' },
    queued: { count: 0, amount: '0.00' },
    awaitingApproval: { count: 0, amount: '0.00' },
    heldForFunds: { count: 0, amount: '0.00', oldestSince: null },
    waiting: { count: 0, amount: '0.00' },
    hold: null,
    balance: null,
  },
  {
    accountId: 'default',
    inFlight: { count: 9, amount: '151.10' },
    queued: { count: 4, amount: '103.15' },
    awaitingApproval: { count: 2, amount: '2550.00' },
    heldForFunds: { count: 4, amount: '307.25', oldestSince: HELD_AT.oldest },
    waiting: { count: 10, amount: '2960.40' },
    hold: { threshold: '5000.00', fee: '0.00', maxHoldSeconds: 4 * 86_400 },
    balance: null,
  },
  {
    accountId: 'gone',
    inFlight: { count: 0, amount: '0.00' },
    queued: { count: 1, amount: '1.23' },
    awaitingApproval: { count: 0, amount: '0.00' },
    heldForFunds: { count: 0, amount: '0.00', oldestSince: null },
    waiting: { count: 1, amount: '1.23' },
    hold: null,
    balance: null,
  },
];

// Issue 32, "what we have committed": per account, what was sent and is not settled and what waits
// to be sent, from the ledger as it is, on the ops API and as gauges.
describe('funds: what each account has committed (real Postgres, the service)', () => {
  let stack: Stack;
  let url: string;

  const get = async (path: string, token?: string) => {
    const res = await fetch(`${url}${path}`, {
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });
    const text = await res.text();
    return { status: res.status, text };
  };

  before(async () => {
    stack = await startStack({
      env: {
        OPS_OPERATORS: OPERATORS,
        // Nothing here may move a row: no executor, no reconciler.
        SERVICE_ROLES: 'queries',
        PROVIDER_ACCOUNTS: JSON.stringify([
          { accountId: 'acc2', clientId: 'acc2_client_id', clientSecret: 'acc2_client_secret' },
        ]),
        FUNDS_HOLD: JSON.stringify([{ accountId: 'default', threshold: '5000.00', maxHold: '96h' }]),
      },
    });
    // One at a time: created_at orders them (the held list is oldest first).
    for (const [account, id, status, amount, heldSince, reason] of PAYOUTS)
      await stack.sql(
        `INSERT INTO payout (account_id, transfer_id, kind, request_hash, request, amount, status, held_since, reason)
         VALUES ($1, $2, 'standard_transfer', 'h', '{}', $3, $4, $5, $6)`,
        [account, id, amount, status, heldSince ?? null, reason ?? null],
      );
    for (const [id, status, entries, heldSince, reason] of BATCHES) {
      const [b] = await stack.sql<{ id: string }>(
        `INSERT INTO batch (account_id, batch_transfer_id, batch_format, request_hash, entry_count, total_amount, status,
                            held_since, reason)
         VALUES ('default', $1, 'BANK_ACCOUNT', 'h', $2, $3, $4, $5, $6) RETURNING id`,
        [
          id,
          entries.length,
          entries.reduce((s, [, a]) => s + Number(a), 0).toFixed(2),
          status,
          heldSince ?? null,
          reason ?? null,
        ],
      );
      for (const [i, [entryStatus, amount]] of entries.entries())
        await stack.sql(
          `INSERT INTO batch_item (batch_id, transfer_id, position, amount, entry, status)
           VALUES ($1, $2, $3, $4, '{}', $5)`,
          [b!.id, `${id}_${i}`, i, amount, entryStatus],
        );
    }
    url = (await stack.startService()).url;
  });
  after(async () => {
    await stack?.close();
  });

  it('GET /ops/funds: every account with its sums and counts, exact, and no balance known yet', async () => {
    const r = await get('/ops/funds', VIEWER);
    assert.equal(r.status, 200, r.text);
    const body = JSON.parse(r.text) as { accounts: unknown[]; at: string };
    assert.deepEqual(body.accounts, EXPECTED);
    assert.ok(Math.abs(Date.parse(body.at) - Date.now()) < 60_000, body.at);
  });

  it('is refused without a valid token (401), and any role may read it (viewer)', async () => {
    const none = await get('/ops/funds');
    assert.equal(none.status, 401);
    assert.equal((JSON.parse(none.text) as { code: string }).code, 'unauthorized');
    assert.equal((await get('/ops/funds', 'not-a-token-of-anyone-0123456789')).status, 401);
    const doc = JSON.parse((await get('/ops/openapi.json', VIEWER)).text) as {
      paths: Record<string, Record<string, Record<string, unknown>>>;
    };
    assert.equal(doc.paths['/ops/funds']?.['get']?.['x-required-role'], 'viewer');
  });

  it('the gauges: the same figures in paise and counts, per account and stage', async () => {
    const { samples } = parseExposition((await get('/metrics')).text);
    const stages = {
      in_flight: 'inFlight',
      queued: 'queued',
      awaiting_approval: 'awaitingApproval',
      held_for_funds: 'heldForFunds',
    } as const;
    for (const a of EXPECTED)
      for (const [stage, key] of Object.entries(stages)) {
        const labels = { account: a.accountId, stage };
        assert.equal(
          valueOf(samples, 'payouts_funds_amount_paise', labels),
          Number(a[key].amount.replace('.', '')),
          JSON.stringify(labels),
        );
        assert.equal(valueOf(samples, 'payouts_funds_payouts', labels), a[key].count, JSON.stringify(labels));
      }
    // No reading of the provider balance yet: no series, never a made-up 0.
    assert.ok(!samples.some((s) => s.name === 'payouts_funds_available_paise'));
    // How long the oldest has been held (from 06:00 to now), 0 where nothing is; the maximum
    // hold only for the account that holds.
    const oldest = valueOf(samples, 'payouts_funds_held_oldest_seconds', { account: 'default' })!;
    const expected = (Date.now() - Date.parse(HELD_AT.oldest)) / 1000;
    assert.ok(Math.abs(oldest - expected) < 60, `${oldest} vs ${expected}`);
    assert.equal(valueOf(samples, 'payouts_funds_held_oldest_seconds', { account: 'acc2' }), 0);
    assert.equal(valueOf(samples, 'payouts_funds_max_hold_seconds', { account: 'default' }), 4 * 86_400);
    assert.equal(valueOf(samples, 'payouts_funds_max_hold_seconds', { account: 'acc2' }), undefined);
    assert.equal(valueOf(samples, 'payouts_ledger_rows', { kind: 'payout', status: 'HELD_FOR_FUNDS' }), 2);
    assert.equal(valueOf(samples, 'payouts_ledger_rows', { kind: 'batch', status: 'HELD_FOR_FUNDS' }), 1);
  });

  it("GET /ops/funds/{accountId}/held: the account's held payouts and batches, oldest first, paged", async () => {
    type Page = { items: Array<Record<string, unknown>>; next: string | null };
    const first = await get('/ops/funds/default/held?limit=2', VIEWER);
    assert.equal(first.status, 200, first.text);
    const p1 = JSON.parse(first.text) as Page;
    assert.deepEqual(
      p1.items.map(({ createdAt, ...rest }) => (assert.ok(typeof createdAt === 'string'), rest)),
      [
        {
          subject: 'payout',
          accountId: 'default',
          transferId: 'f_held_1',
          amount: '300.00',
          entries: 1,
          heldSince: HELD_AT.oldest,
          reason: 'insufficient_funds',
        },
        {
          subject: 'payout',
          accountId: 'default',
          transferId: 'f_held_2',
          amount: '0.25',
          entries: 1,
          heldSince: HELD_AT.payout,
          reason: 'insufficient_funds',
        },
      ],
    );
    assert.ok(p1.next);
    const p2 = JSON.parse(
      (await get(`/ops/funds/default/held?limit=2&after=${p1.next}`, VIEWER)).text,
    ) as Page;
    assert.deepEqual(
      p2.items.map((i) => [
        i['subject'],
        i['transferId'],
        i['amount'],
        i['entries'],
        i['heldSince'],
        i['reason'],
      ]),
      [['batch', 'fb_held', '7.00', 2, HELD_AT.batch, 'no_balance_reading']],
    );
    assert.equal(p2.next, null);
    // A configured account with nothing held: an empty page; no such account: 404.
    assert.deepEqual(JSON.parse((await get('/ops/funds/acc2/held', VIEWER)).text), { items: [], next: null });
    assert.equal((await get('/ops/funds/nope/held', VIEWER)).status, 404);
    assert.equal((await get('/ops/funds/default/held?after=garbage', VIEWER)).status, 400);
    assert.equal((await get('/ops/funds/default/held?limit=0', VIEWER)).status, 400);
    assert.equal((await get('/ops/funds/default/held')).status, 401);
    // The search finds held payouts too (its status filter).
    const found = JSON.parse(
      (await get('/ops/payouts?status=HELD_FOR_FUNDS&accountId=default', VIEWER)).text,
    ) as { items: Array<{ transferId: string }> };
    assert.deepEqual(found.items.map((i) => i.transferId).sort(), ['f_held_1', 'f_held_2']);
  });

  it("the repository's rows: held_since only on the held stage (a row held once and sent since does not count)", async () => {
    const pool = new pg.Pool({ connectionString: stack.db.url, max: 1 });
    try {
      const rows = await new FundsRepository().committed(pool);
      const since = rows.filter((r) => r.heldSince !== null).map((r) => [r.accountId, r.stage]);
      assert.deepEqual(since, [['default', 'held_for_funds']]);
      const held = rows.find((r) => r.stage === 'held_for_funds')!;
      assert.equal(held.heldSince?.toISOString(), HELD_AT.oldest);
    } finally {
      await pool.end();
    }
  });

  it('reads the live payouts through their indexes and only the entries of live batches, no table scan', async () => {
    const pool = new pg.Pool({ connectionString: stack.db.url, max: 1 });
    const c = await pool.connect();
    try {
      // Planned without statistics, as on a fresh database (EXPLAIN only: nothing runs).
      const plans: PlanNode[] = [];
      const explaining = {
        // Parameters as literals: the plan Postgres makes for a statement with its values.
        query: async (text: string, params: ReadonlyArray<string | number | null> = []) => {
          const sql = text.replace(/\$(\d+)/g, (_, n: string) => {
            const v = params[Number(n) - 1];
            return v === null || v === undefined ? 'NULL' : c.escapeLiteral(String(v));
          });
          const { rows } = await c.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
            `EXPLAIN (FORMAT JSON) ${sql}`,
          );
          plans.push(rows[0]!['QUERY PLAN'][0].Plan);
          return { rows: [] };
        },
      } as unknown as pg.PoolClient;
      await new FundsRepository().committed(explaining);
      const scanned = nodes(plans[0]!)
        .filter((n) => n['Node Type'] === 'Seq Scan')
        .map((n) => n['Relation Name']);
      assert.ok(!scanned.includes('payout'), `payout read whole: ${JSON.stringify(plans[0])}`);
      assert.ok(!scanned.includes('batch_item'), `batch_item read whole: ${JSON.stringify(plans[0])}`);
      // The held list: each branch through its partial index, a first page and a later one.
      await new FundsRepository().held(explaining, 'default', null, 100);
      await new FundsRepository().held(
        explaining,
        'default',
        { createdAt: '2026-11-27 06:00:00+00', subject: 'payout', id: '7' },
        100,
      );
      for (const plan of plans.slice(1)) {
        const used = nodes(plan);
        assert.ok(
          !used.some((n) => n['Node Type'] === 'Seq Scan'),
          `a table read whole: ${JSON.stringify(plan)}`,
        );
      }
    } finally {
      c.release();
      await pool.end();
    }
  });
});
