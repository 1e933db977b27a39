import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import type pg from 'pg';
import { inTransaction } from './transaction.js';

/** A pooled client that records its statements; `failOn` statements reject. */
function fakeClient(failOn: readonly string[] = []) {
  const emitter = new EventEmitter();
  const statements: string[] = [];
  const released: unknown[] = [];
  const client = Object.assign(emitter, {
    query: (sql: string) => {
      statements.push(sql);
      return failOn.includes(sql)
        ? Promise.reject(new Error(`${sql} failed`))
        : Promise.resolve({ rows: [] });
    },
    release: (e?: unknown) => {
      released.push(e);
    },
  });
  const pool = { connect: () => Promise.resolve(client) } as unknown as pg.Pool;
  return { client, pool, statements, released };
}

describe('inTransaction', () => {
  it('commits what resolves and hands the client back whole', async () => {
    const f = fakeClient();
    const out = await inTransaction(f.pool, async (c) => {
      await c.query('SELECT 1');
      return 42;
    });
    assert.equal(out, 42);
    assert.deepEqual(f.statements, ['BEGIN', 'SELECT 1', 'COMMIT']);
    assert.deepEqual(f.released, [undefined]);
    assert.equal(f.client.listenerCount('error'), 0, 'its error listener is removed');
  });

  it('rolls back what throws, and keeps a client whose ROLLBACK worked', async () => {
    const f = fakeClient();
    await assert.rejects(
      inTransaction(f.pool, () => Promise.reject(new Error('refused'))),
      /refused/,
    );
    assert.deepEqual(f.statements, ['BEGIN', 'ROLLBACK']);
    assert.deepEqual(f.released, [undefined]);
  });

  it('has the pool discard a client whose ROLLBACK failed (a broken connection)', async () => {
    const f = fakeClient(['COMMIT', 'ROLLBACK']);
    await assert.rejects(
      inTransaction(f.pool, () => Promise.resolve()),
      /COMMIT failed/,
    );
    assert.ok(f.released[0] instanceof Error, 'released with the error');
  });

  it('survives an error event of the connection while checked out, and discards the client', async () => {
    const f = fakeClient();
    await inTransaction(f.pool, () => {
      // Unhandled, this would throw (an EventEmitter 'error' without a listener).
      f.client.emit('error', new Error('Connection terminated unexpectedly'));
      return Promise.resolve();
    });
    assert.ok(f.released[0] instanceof Error);
    assert.equal(f.client.listenerCount('error'), 0);
  });
});
