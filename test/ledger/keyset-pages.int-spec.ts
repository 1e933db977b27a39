import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { DeadLetterRepository } from '#ledger';
import { OutboxRepository } from '#outbox';
import { createTestDatabase, type TestDatabase } from '#test-support';

// Issue 24, finding 1: the newest-first lists page by id. Ids past 9 used to sort as text
// (9, 8, ..., 3, 25, ..., 20, 2, 19, ...), so a cursor walked 9 → 6 → 3 and never reached 10-25.
describe('newest-first lists page by number, not by text (real Postgres)', () => {
  let db: TestDatabase;
  let pool: pg.Pool;

  before(async () => {
    db = await createTestDatabase();
    pool = new pg.Pool({ connectionString: db.url, max: 2 });
  });
  after(async () => {
    pool?.on('error', () => undefined);
    await pool?.end();
    await db?.drop();
  });

  /** Walks a list three rows at a time to its end. */
  async function walk(page: (beforeId: string | undefined) => Promise<Array<{ id: string }>>) {
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let i = 0; i < 50; i++) {
      const rows = await page(cursor);
      if (rows.length === 0) break;
      seen.push(...rows.map((r) => r.id));
      cursor = rows.at(-1)?.id;
    }
    return seen;
  }

  it('dead letters: 25 rows come back 25, 24, ..., 1, in pages of 3', async () => {
    const repo = new DeadLetterRepository();
    await pool.query(
      `INSERT INTO dead_letter (topic, partition, "offset", reason, detail)
       SELECT 't', 0, g::text, 'schema', '{}'::jsonb FROM generate_series(1, 25) g`,
    );
    const ids = (await pool.query<{ id: string }>(`SELECT id::text AS id FROM dead_letter ORDER BY 1`)).rows;
    const expected = ids.map((r) => r.id).sort((a, b) => Number(b) - Number(a));
    assert.deepEqual(
      (await repo.list(pool, { beforeId: undefined, limit: 200 })).map((r) => r.id),
      expected,
    );
    assert.deepEqual(await walk((beforeId) => repo.list(pool, { beforeId, limit: 3 })), expected);
  });

  it('dead outbox rows: 25 rows come back newest first, in pages of 3', async () => {
    const repo = new OutboxRepository();
    await pool.query(
      `INSERT INTO outbox (message_key, event_id, event_type, topic, payload, headers, state)
       SELECT 'k' || g, 'k' || g || ':1', 'payout.status_changed', 'events', '{}'::jsonb, '{}'::jsonb, 'dead'
         FROM generate_series(1, 25) g`,
    );
    const ids = (await pool.query<{ id: string }>(`SELECT id::text AS id FROM outbox WHERE state = 'dead'`))
      .rows;
    const expected = ids.map((r) => r.id).sort((a, b) => Number(b) - Number(a));
    assert.deepEqual(
      (await repo.listDead(pool, { beforeId: undefined, limit: 200 })).map((r) => r.id),
      expected,
    );
    assert.deepEqual(await walk((beforeId) => repo.listDead(pool, { beforeId, limit: 3 })), expected);
  });
});
