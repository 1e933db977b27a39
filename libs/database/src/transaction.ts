import type pg from 'pg';

/**
 * Runs `fn` in one transaction on a pooled client: COMMIT when it resolves, ROLLBACK when it
 * throws. The one transaction helper of the code base.
 *
 * A connection that dies while checked out (a database restart, a network cut) emits 'error' on
 * its client; unhandled, that crashes the process. createPool's clients have a listener for their
 * whole life; this one is added for the transaction's duration, so a pool made elsewhere is safe
 * too. A client whose connection broke (an 'error' event, or a ROLLBACK that failed) is released
 * with the error, so the pool discards it instead of handing it to the next caller.
 */
export async function inTransaction<T>(pool: pg.Pool, fn: (c: pg.PoolClient) => Promise<T>): Promise<T> {
  const c = await pool.connect();
  let broken: Error | undefined;
  const onError = (e: Error): void => {
    broken ??= e;
  };
  c.on('error', onError);
  try {
    await c.query('BEGIN');
    const out = await fn(c);
    await c.query('COMMIT');
    return out;
  } catch (e) {
    await c.query('ROLLBACK').catch((rollbackFailed: unknown) => {
      broken ??= rollbackFailed instanceof Error ? rollbackFailed : new Error(String(rollbackFailed));
    });
    throw e;
  } finally {
    c.off('error', onError);
    c.release(broken);
  }
}
