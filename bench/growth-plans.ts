/**
 * Query plans on the prefilled ledger (bench/growth.bench.ts): each statement as the repositories
 * write it (read from the checked-in `libs/<lib>/sql/*.sql`, so a statement changed elsewhere is
 * measured as it now is), with parameters of the shape the service passes, under
 * EXPLAIN (ANALYZE, BUFFERS) in a transaction rolled back. pg sends unnamed statements, so
 * Postgres plans each with its values (a custom plan), as here.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type pg from 'pg';
import { ROOT } from './support.js';

/** Every tagged statement of the checked-in SQL files, by tag. */
export function checkedInSql(): Map<string, string> {
  const out = new Map<string, string>();
  for (const lib of readdirSync(join(ROOT, 'libs'))) {
    let files: string[];
    try {
      files = readdirSync(join(ROOT, 'libs', lib, 'sql')).filter((f) => f.endsWith('.sql'));
    } catch {
      continue;
    }
    for (const f of files) {
      const text = readFileSync(join(ROOT, 'libs', lib, 'sql', f), 'utf8');
      for (const block of text.split(/^-- (?=[A-Za-z]+\.[A-Za-z.]+ \()/m).slice(1)) {
        const nl = block.indexOf('\n');
        const tag = block.slice(0, block.indexOf(' '));
        out.set(
          tag,
          block
            .slice(nl + 1)
            .trim()
            .replace(/;$/, ''),
        );
      }
    }
  }
  return out;
}

export interface PlanCase {
  readonly tag: string;
  /** What the parameters stand for. */
  readonly shape: string;
  readonly params: unknown[];
  /** Statements run first in the same transaction (rows the statement needs). */
  readonly setup?: readonly string[];
}

export interface PlanResult {
  readonly tag: string;
  readonly shape: string;
  readonly ms: number;
  /** Node types with their index or table, outermost first, repeats left out. */
  readonly plan: string;
  readonly rows: number;
  /** Shared buffers hit + read. */
  readonly buffers: number;
  /** state_history partitions the plan reads. */
  readonly historyPartitions: number;
  readonly error?: string;
}

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Actual Rows'?: number;
  'Shared Hit Blocks'?: number;
  'Shared Read Blocks'?: number;
  Plans?: PlanNode[];
}

function walk(n: PlanNode, into: string[], rels: Set<string>): void {
  const on = n['Index Name'] ?? n['Relation Name'];
  if (n['Relation Name']?.startsWith('state_history')) rels.add(n['Relation Name']);
  const label = on ? `${n['Node Type']} ${on}` : n['Node Type'];
  if (
    !into.includes(label) &&
    !/^(Result|Limit|ModifyTable|CTE Scan|Function Scan|LockRows)$/.test(n['Node Type'])
  )
    into.push(label);
  for (const p of n.Plans ?? []) walk(p, into, rels);
}

/** Runs each case twice (the second, warm, is kept), each in its own rolled-back transaction. */
export async function explainAll(
  c: pg.Client,
  sql: Map<string, string>,
  cases: readonly PlanCase[],
): Promise<PlanResult[]> {
  const out: PlanResult[] = [];
  for (const k of cases) {
    const text = sql.get(k.tag);
    if (text === undefined) {
      out.push({ ...k, ms: NaN, plan: '', rows: 0, buffers: 0, historyPartitions: 0, error: 'no such tag' });
      continue;
    }
    let last: PlanResult | undefined;
    for (let i = 0; i < 2; i++) {
      await c.query('BEGIN');
      try {
        for (const s of k.setup ?? []) await c.query(s);
        const { rows } = await c.query<{ 'QUERY PLAN': Array<{ Plan: PlanNode; 'Execution Time': number }> }>(
          `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${text}`,
          k.params,
        );
        const top = rows[0]?.['QUERY PLAN'][0];
        if (!top) throw new Error('no plan');
        const nodes: string[] = [];
        const rels = new Set<string>();
        walk(top.Plan, nodes, rels);
        last = {
          tag: k.tag,
          shape: k.shape,
          ms: top['Execution Time'],
          plan: nodes.join(' > '),
          rows: top.Plan['Actual Rows'] ?? 0,
          buffers: (top.Plan['Shared Hit Blocks'] ?? 0) + (top.Plan['Shared Read Blocks'] ?? 0),
          historyPartitions: rels.size,
        };
      } catch (e) {
        last = {
          tag: k.tag,
          shape: k.shape,
          ms: NaN,
          plan: '',
          rows: 0,
          buffers: 0,
          historyPartitions: 0,
          error: e instanceof Error ? e.message : String(e),
        };
      } finally {
        await c.query('ROLLBACK');
      }
    }
    if (last) out.push(last);
  }
  return out;
}

/** A sample of existing payouts to aim the statements at. */
export interface Sample {
  readonly rows: ReadonlyArray<{
    id: string;
    version: number;
    status: string;
    account_id: string;
    transfer_id: string;
    created_at: Date;
    utr: string | null;
  }>;
}

export async function sample(c: pg.Client, payouts: number, n = 100): Promise<Sample> {
  const ids = Array.from({ length: n }, () => 1 + Math.floor(Math.random() * payouts));
  const { rows } = await c.query<Sample['rows'][number]>(
    `SELECT id::text, version, status, account_id, transfer_id, created_at, utr FROM payout WHERE id = ANY($1::bigint[]) ORDER BY id`,
    [ids],
  );
  return { rows };
}

const nulls = (n: number): null[] => Array.from({ length: n }, () => null);

/** The hot path's statements and the operations' reads, each with parameters of its real shape. */
export function planCases(s: Sample, tag: string): PlanCase[] {
  const r = s.rows;
  const n = r.length;
  const fresh = Array.from({ length: 100 }, (_, i) => `plan-${tag}-${i}`);
  const one = r.find((x) => x.utr !== null) ?? r[0];
  const old = r[0];
  if (!one || !old) throw new Error('the sample is empty: is the ledger prefilled?');
  const day = 86_400_000;
  const newRows = `INSERT INTO payout (account_id, transfer_id, kind, request_hash, request, amount)
                   SELECT 'default', 'plan-setup-' || g, 'standard_transfer', 'h', '{}', 1 FROM generate_series(1, 100) g`;
  // search.payouts: statuses, one status, kinds, account, from, to, utr, transferId LIKE, after (created, id), limit,
  // sub-states.
  const search = (shape: string, p: Partial<Record<number, unknown>>): PlanCase => {
    const params: unknown[] = nulls(12);
    params[10] = 51;
    for (const [i, v] of Object.entries(p)) params[Number(i)] = v;
    return { tag: 'search.payouts', shape, params };
  };
  const now = Date.now();
  return [
    {
      tag: 'payout.insertNew',
      shape: '100 new payouts',
      params: [
        fresh.map(() => 'default'),
        fresh,
        fresh.map(() => 'standard_transfer'),
        fresh.map(() => 'h'),
        // The requests and the sealed secrets as one JSON array each, as PayoutMoves.insertNew sends them.
        JSON.stringify(fresh.map((t) => ({ transferId: t, amount: '1.00', beneId: 'bene-1' }))),
        JSON.stringify(fresh.map(() => null)),
        fresh.map(() => '1.00'),
        fresh,
        nulls(100),
        fresh.map(() => 'v1'),
      ],
    },
    {
      tag: 'payout.findByIdentities',
      shape: `${n} identities (duplicates)`,
      params: [r.map((x) => x.account_id), r.map((x) => x.transfer_id)],
    },
    { tag: 'payout.findOne', shape: 'one identity', params: [one.account_id, one.transfer_id] },
    {
      tag: 'payout.claimForSubmission',
      shape: '100 of 100 RECEIVED',
      params: ['bench', 30_000, 100],
      setup: [newRows],
    },
    {
      tag: 'payout.transitionMany',
      shape: `${n} outcomes`,
      params: [
        r.map((x) => x.id),
        r.map((x) => x.version),
        r.map(() => 'SUCCESS'),
        ...Array.from({ length: 5 }, () => nulls(n)),
        nulls(n),
        nulls(n),
        r.map(() => false),
        60_000,
        ['standard_transfer'],
        r.map((x) => x.status),
        nulls(n),
        nulls(n),
        nulls(n),
        'reconciler',
        // The provider's sub-state (issue 29): not given.
        r.map(() => false),
        nulls(n),
      ],
    },
    { tag: 'payout.claimDueChecks', shape: 'due checks, limit 100', params: ['bench', 30_000, 100] },
    { tag: 'payout.claimAttentionChecks', shape: 'attention watch, limit 16', params: ['bench', 30_000, 16] },
    {
      tag: 'payout.renewLeases',
      shape: `${n} leases`,
      params: ['bench', 30_000, r.map((x) => x.id), r.map((x) => x.version)],
    },
    {
      tag: 'history.record',
      shape: '100 rows (batches, rare moves)',
      params: [
        r.map(() => 'payout'),
        r.map((x) => x.id),
        r.map((x) => x.account_id),
        r.map((x) => x.transfer_id),
        r.map((x) => x.status),
        r.map(() => 'SUCCESS'),
        r.map((x) => x.version + 1),
        r.map(() => 'reconciler'),
        ...Array.from({ length: 7 }, () => nulls(n)),
      ],
    },
    { tag: 'payout.requiringAttention', shape: 'limit 100', params: [100] },
    { tag: 'ledgerStats.snapshot', shape: 'the ledger gauges (cached per scrape)', params: [] },
    {
      tag: 'history.ofSubject',
      shape: "a payout's timeline, from its creation",
      params: [['payout'], old.id, new Date(old.created_at.getTime() - day)],
    },
    {
      tag: 'history.ofSubject',
      shape: 'the same, every partition (no lower bound)',
      params: [['payout'], old.id, '-infinity'],
    },
    search('no filter, newest first', {}),
    search('status REQUIRES_ATTENTION', { 1: 'REQUIRES_ATTENTION' }),
    search('status SUCCESS', { 1: 'SUCCESS' }),
    search('statuses PENDING, UNKNOWN', { 0: ['PENDING', 'UNKNOWN'] }),
    search('utr', { 6: one.utr ?? 'none' }),
    search('transferId prefix', { 7: `${old.transfer_id.slice(0, -2)}%` }),
    search('one day, 6 months ago', { 4: new Date(now - 183 * day), 5: new Date(now - 182 * day) }),
    search('account acc3', { 3: 'acc3' }),
    search('sub-state queued', { 11: ['queued'] }),
    search('kind validated_upi_payout, FAILED', { 1: 'FAILED', 2: ['validated_upi_payout'] }),
    search('second page, status SUCCESS', { 1: 'SUCCESS', 8: new Date(now - 30 * day), 9: '1' }),
    {
      tag: 'beneHistory.page',
      shape: "a beneficiary's payouts, first page",
      params: ['default', 'bene-123', null, null, 20, 0],
    },
  ];
}
