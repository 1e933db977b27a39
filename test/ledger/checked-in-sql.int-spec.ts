import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import pg from 'pg';
import { createTestDatabase, type TestDatabase } from '#test-support';
import { generateSqlFiles, type SqlFile } from '../../scripts/sql-files.js';

const root = resolve(import.meta.dirname, '../../..');

// Every query the repositories send, as `npm run sql` renders it, is prepared (parsed, planned,
// its parameters typed) against the migrated schema: a migration that breaks a rarely run query,
// or a rendering that is not the SQL the code sends, fails here rather than in production.
describe('checked-in SQL against the schema', () => {
  let db: TestDatabase;
  let pool: pg.Pool;
  let files: SqlFile[];
  before(async () => {
    db = await createTestDatabase();
    pool = new pg.Pool({ connectionString: db.url, max: 1 });
    files = await generateSqlFiles(root);
  });
  after(async () => {
    // pool.end() does not wait for its connections to close, and the drop (WITH FORCE) may cut
    // one still closing: that is an 'error' on the pool, not a failure of these tests.
    pool?.on('error', () => undefined);
    await pool?.end();
    await db?.drop();
  });

  it('covers the ledger and outbox repositories', () => {
    const paths = files.map((f) => f.path);
    for (const p of [
      'libs/ledger/sql/batch.repository.sql',
      'libs/ledger/sql/payout.repository.sql',
      'libs/outbox/sql/outbox.repository.sql',
    ])
      assert.ok(paths.includes(p), p);
  });

  it('every query prepares against the migrated schema', async () => {
    const failures: string[] = [];
    let n = 0;
    for (const q of files.flatMap((f) => f.queries)) {
      try {
        await pool.query(`PREPARE checked_${n} AS ${q.sql}`);
        await pool.query(`DEALLOCATE checked_${n}`);
      } catch (e) {
        failures.push(`${q.tag}: ${(e as Error).message}`);
      }
      n += 1;
    }
    assert.deepEqual(failures, []);
    assert.ok(n >= 30, `${n} queries`);
  });
});
