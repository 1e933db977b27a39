import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createPool } from '#database';
import { createTestDatabase, eventually, type TestDatabase } from '#test-support';

// A Postgres restart kills every connection. pg reports it as an 'error' event (on the pool for
// an idle client, on the client itself while it is checked out); unhandled, that crashes the
// process. The pool must route both to its handler.
describe('createPool and dying connections', () => {
  let db: TestDatabase;
  before(async () => {
    db = await createTestDatabase();
  });
  after(async () => {
    await db.drop();
  });

  it('reports a connection killed while checked out (between queries) instead of crashing', async () => {
    const errors: Error[] = [];
    const pool = createPool({
      url: db.url,
      max: 2,
      applicationName: 'dying-test',
      onConnectionError: (e) => errors.push(e),
    });
    const held = await pool.connect();
    const { rows } = await held.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    // Killed from another connection while `held` waits between queries (as the relay does
    // during a Kafka send).
    await pool.query('SELECT pg_terminate_backend($1)', [rows[0]?.pid]);
    await eventually(() => (errors.length > 0 ? true : undefined), { what: 'the error reported' });
    await assert.rejects(held.query('SELECT 1'));
    held.release(true);
    assert.equal((await pool.query<{ one: number }>('SELECT 1 AS one')).rows[0]?.one, 1, 'the pool recovers');
    await pool.end();
  });

  it('reports an idle connection killed', async () => {
    const errors: Error[] = [];
    const pool = createPool({
      url: db.url,
      max: 2,
      applicationName: 'dying-idle',
      onConnectionError: (e) => errors.push(e),
    });
    const c = await pool.connect();
    const { rows } = await c.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    c.release();
    const killer = createPool({
      url: db.url,
      max: 1,
      applicationName: 'killer',
      onConnectionError: () => undefined,
    });
    await killer.query('SELECT pg_terminate_backend($1)', [rows[0]?.pid]);
    await eventually(() => (errors.length > 0 ? true : undefined), { what: 'the error reported' });
    await killer.end();
    await pool.end();
  });
});
