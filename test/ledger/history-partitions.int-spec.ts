import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import {
  HistoryMaintenance,
  HistoryPartitionsRepository,
  HistoryRepository,
  type HistoryEntry,
} from '#ledger';
import { revertLastMigration, runMigrations } from '#database';
import { createTestDatabase, type TestDatabase } from '#test-support';
import { createLogger } from '#observability';

// state_history by month (ADR 0016, amendment of 2026-11-25): the partitions kept ahead, the retention, the default that
// takes any row no month covers, the timeline reading only the months since its payout began, and
// the migration of an existing table.
const repo = new HistoryPartitionsRepository();
const history = new HistoryRepository();
const logger = createLogger({ level: 'silent', name: 'test' });

const KEEP = { monthsAhead: 3, retentionMonths: 0, retire: 'detach', lockTimeoutMs: 2000 } as const;

function monthName(d: Date): string {
  return `state_history_${d.getUTCFullYear()}_${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
}
function monthsFromNow(n: number): Date {
  const d = new Date();
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + n, 15, 12));
}

function entry(subjectId: string, to = 'RECEIVED'): HistoryEntry {
  return {
    subject: 'payout',
    subjectId,
    accountId: 'acc',
    transferId: `t-${subjectId}`,
    from: null,
    to,
    version: 1,
    cause: 'intake',
  };
}

/** A history row stamped `at` (the ledger stamps now(); old and future rows are written here). */
async function insertAt(db: pg.Pool, subjectId: number, at: Date): Promise<void> {
  await db.query(
    `INSERT INTO state_history (subject, subject_id, account_id, transfer_id, to_status, version, cause, at)
     VALUES ('payout', $1, 'acc', 't', 'RECEIVED', 1, 'intake', $2)`,
    [subjectId, at],
  );
}

async function where(db: pg.Pool): Promise<Record<string, number>> {
  const { rows } = await db.query<{ part: string; n: number }>(
    `SELECT tableoid::regclass::text AS part, count(*)::int AS n FROM state_history GROUP BY 1 ORDER BY 1`,
  );
  return Object.fromEntries(rows.map((r) => [r.part, r.n]));
}

describe('state_history partitions (real Postgres)', () => {
  let db: TestDatabase;
  let pool: pg.Pool;
  before(async () => {
    db = await createTestDatabase();
    pool = new pg.Pool({ connectionString: db.url, max: 4 });
  });
  after(async () => {
    pool?.on('error', () => undefined);
    await pool?.end();
    await db?.drop();
  });
  beforeEach(async () => {
    await pool.query('TRUNCATE state_history');
  });

  it('a migrated ledger has this month, the next three and a default; maintenance keeps them', async () => {
    const names = (await repo.list(pool)).map((p) => p.name);
    for (let i = 0; i <= 3; i += 1) assert.ok(names.includes(monthName(monthsFromNow(i))), names.join());
    assert.equal(names.at(-1), 'state_history_default');
    assert.deepEqual(await repo.maintain(pool, KEEP), [], 'nothing to do');
    const created = await repo.maintain(pool, { ...KEEP, monthsAhead: 5 });
    assert.deepEqual(
      created?.map((c) => [c.action, c.partition]),
      [
        ['created', monthName(monthsFromNow(4))],
        ['created', monthName(monthsFromNow(5))],
      ],
    );
  });

  it('a write no month covers lands in the default, and moves to its month when that is created', async () => {
    const far = monthsFromNow(30);
    await insertAt(pool, 1, far);
    await history.record(pool, [entry('2')]);
    assert.deepEqual(await where(pool), { state_history_default: 1, [monthName(monthsFromNow(0))]: 1 });
    const changes = await repo.maintain(pool, KEEP);
    assert.deepEqual(changes, [{ action: 'created', partition: monthName(far), movedRows: 1 }]);
    assert.deepEqual(await where(pool), { [monthName(far)]: 1, [monthName(monthsFromNow(0))]: 1 });
  });

  it('retention drops the partitions older than it, keeps the recent ones, and writes go on', async () => {
    await insertAt(pool, 1, monthsFromNow(-14));
    await insertAt(pool, 2, monthsFromNow(-13));
    await insertAt(pool, 3, monthsFromNow(-2));
    await history.record(pool, [entry('4')]);
    // The old months land in the default (no partition), then get their own, then go.
    const changes = await repo.maintain(pool, { ...KEEP, retentionMonths: 12, retire: 'drop' });
    assert.deepEqual(
      changes?.map((c) => [c.action, c.partition]),
      [
        ['created', monthName(monthsFromNow(-14))],
        ['created', monthName(monthsFromNow(-13))],
        ['created', monthName(monthsFromNow(-2))],
        ['dropped', monthName(monthsFromNow(-14))],
        ['dropped', monthName(monthsFromNow(-13))],
      ],
    );
    assert.deepEqual(await where(pool), {
      [monthName(monthsFromNow(-2))]: 1,
      [monthName(monthsFromNow(0))]: 1,
    });
    await history.record(pool, [entry('5')]);
    assert.equal((await history.ofSubject(pool, 'payout', '5', new Date())).length, 1);
    assert.deepEqual(await repo.maintain(pool, { ...KEEP, retentionMonths: 12, retire: 'drop' }), []);
  });

  it('retention by detach leaves the old month in schema state_history_archive', async () => {
    await insertAt(pool, 1, monthsFromNow(-20));
    const changes = await repo.maintain(pool, { ...KEEP, retentionMonths: 12, retire: 'detach' });
    assert.deepEqual(changes?.at(-1), {
      action: 'detached',
      partition: monthName(monthsFromNow(-20)),
      movedRows: 0,
    });
    const { rows } = await pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM state_history_archive.${monthName(monthsFromNow(-20))}`,
    );
    assert.equal(rows[0]?.n, 1);
    assert.deepEqual(await where(pool), {});
    await pool.query(`DROP TABLE state_history_archive.${monthName(monthsFromNow(-20))}`);
  });

  it('one instance maintains at a time: the others skip the round', async () => {
    const holder = await pool.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT pg_advisory_xact_lock(7426024)');
      assert.equal(await repo.maintain(pool, KEEP), undefined);
      await holder.query('ROLLBACK');
    } finally {
      holder.release();
    }
    assert.deepEqual(await repo.maintain(pool, KEEP), []);
  });

  it('the job runs a round at start and logs failures without throwing', async () => {
    const job = new HistoryMaintenance({
      pool,
      logger,
      settings: { ...KEEP, monthsAhead: 7, intervalMs: 3_600_000 },
    });
    job.start();
    await job.stop();
    const names = (await repo.list(pool)).map((p) => p.name);
    assert.ok(names.includes(monthName(monthsFromNow(7))), names.join());
  });

  it("a timeline reads only the partitions from its subject's creation on", async () => {
    await history.record(pool, [entry('9')]);
    const since = new Date(Date.now() - 24 * 3600 * 1000);
    const { rows } = await pool.query<{ 'QUERY PLAN': string }>(
      `EXPLAIN SELECT * FROM state_history WHERE subject = ANY($1::text[]) AND subject_id = $2 AND at >= $3 ORDER BY id`
        .replace(/\$1::text\[\]/, `'{payout}'::text[]`)
        .replace('$2', '9')
        .replace('$3', `'${since.toISOString()}'`),
    );
    const plan = rows.map((r) => r['QUERY PLAN']).join('\n');
    assert.doesNotMatch(plan, new RegExp(monthName(monthsFromNow(-1))));
    assert.match(plan, new RegExp(monthName(monthsFromNow(0))));
    assert.equal((await history.ofSubject(pool, 'payout', '9', new Date())).length, 1);
  });
});

describe('the migration of an existing state_history (real Postgres)', () => {
  let db: TestDatabase;
  before(async () => {
    db = await createTestDatabase({ empty: true });
  });
  after(async () => {
    await db?.drop();
  });

  it('attaches the old table whole (rows, ids) and an operator-validated bound spares the scan', async () => {
    await runMigrations(db.url);
    const c = new pg.Client({ connectionString: db.url });
    await c.connect();
    /** Reverts migrations, newest first, until state_history is a plain table again. */
    const revertPartitioning = async (): Promise<void> => {
      for (;;) {
        const { rows } = await c.query<{ k: string }>(
          `SELECT relkind::text AS k FROM pg_class WHERE relname = 'state_history'`,
        );
        if (rows[0]?.k !== 'p') return;
        await revertLastMigration(db.url);
      }
    };
    try {
      await revertPartitioning();
      await c.query(
        `INSERT INTO state_history (subject, subject_id, account_id, transfer_id, to_status, version, cause, at)
         SELECT 'payout', g, 'acc', 't' || g, 'RECEIVED', 1, 'intake', now() - make_interval(days => g)
           FROM generate_series(1, 1000) g`,
      );
      // The operator path (docs/OPERATIONS.md): a bound past next month, validated online.
      const bound = monthsFromNow(2);
      await c.query(
        `ALTER TABLE state_history ADD CONSTRAINT state_history_legacy_bound CHECK (at < '${bound.toISOString()}') NOT VALID`,
      );
      await c.query(`ALTER TABLE state_history VALIDATE CONSTRAINT state_history_legacy_bound`);
      const applied = await runMigrations(db.url);
      assert.equal(applied.applied[0], 'HistoryPartitions1764500000000');
      const parts = await new HistoryPartitionsRepository().list(c as unknown as pg.PoolClient);
      const legacy = parts.find((p) => p.name === 'state_history_legacy');
      const end = monthsFromNow(3);
      assert.equal(
        legacy?.upper?.toISOString(),
        new Date(Date.UTC(end.getUTCFullYear(), end.getUTCMonth(), 1)).toISOString(),
      );
      assert.equal(legacy?.lower, null);
      const { rows } = await c.query<{ n: number; max: string }>(
        `SELECT count(*)::int AS n, max(id)::text AS max FROM state_history_legacy`,
      );
      assert.equal(rows[0]?.n, 1000);
      // The identity goes on after the old table's ids.
      const { rows: added } = await c.query<{ id: string; part: string }>(
        `INSERT INTO state_history (subject, subject_id, account_id, transfer_id, to_status, version, cause)
         VALUES ('payout', 1, 'acc', 't1', 'SUBMITTING', 2, 'executor') RETURNING id::text, tableoid::regclass::text AS part`,
      );
      assert.deepEqual(added[0], { id: String(Number(rows[0]?.max) + 1), part: 'state_history_legacy' });
      const timeline = await history.ofSubject(
        c as unknown as pg.PoolClient,
        'payout',
        '1',
        new Date(Date.now() - 2 * 86_400_000),
      );
      assert.deepEqual(
        timeline.map((h) => h.to),
        ['RECEIVED', 'SUBMITTING'],
      );
      // And back: the plain table with every row.
      await revertPartitioning();
      const { rows: back } = await c.query<{ n: number }>(`SELECT count(*)::int AS n FROM state_history`);
      assert.equal(back[0]?.n, 1001);

      // A bound the migration cannot read (not a plain literal) is left alone: the attach then
      // checks the rows against next month's boundary instead.
      await c.query(
        `ALTER TABLE state_history ADD CONSTRAINT state_history_legacy_bound CHECK (at < '2100-01-01'::timestamptz + interval '1 day')`,
      );
      await runMigrations(db.url);
      const again = (await new HistoryPartitionsRepository().list(c as unknown as pg.PoolClient)).find(
        (p) => p.name === 'state_history_legacy',
      );
      const next = monthsFromNow(1);
      assert.equal(
        again?.upper?.toISOString(),
        new Date(Date.UTC(next.getUTCFullYear(), next.getUTCMonth(), 1)).toISOString(),
      );
    } finally {
      await c.end();
    }
  });
});
