import pg from 'pg';
import { databaseName, describeDatabase, withDatabase } from './pg-pool.js';

export class DatabaseUnavailableError extends Error {
  constructor(url: string, cause: unknown) {
    super(
      `PostgreSQL is not reachable at ${describeDatabase(url)}: ${cause instanceof Error ? cause.message : String(cause)}. ` +
        'Start it (on Debian: pg_ctlcluster <version> main start) or set DATABASE_URL.',
      { cause },
    );
    this.name = 'DatabaseUnavailableError';
  }
}

const IDENT = /^[A-Za-z0-9_]+$/;

/** Creates the database of `url` when it does not exist. Returns whether it created it. */
export async function ensureDatabase(url: string): Promise<boolean> {
  const name = databaseName(url);
  if (!IDENT.test(name)) throw new Error(`database name ${JSON.stringify(name)} must match ${IDENT}`);
  const admin = new pg.Client({
    connectionString: withDatabase(url, 'postgres'),
    connectionTimeoutMillis: 5_000,
  });
  try {
    await admin.connect();
  } catch (e) {
    throw new DatabaseUnavailableError(url, e);
  }
  try {
    const { rowCount } = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (rowCount) return false;
    try {
      await admin.query(`CREATE DATABASE "${name}"`);
    } catch (e) {
      // Two processes racing to create it: the loser sees duplicate_database.
      if ((e as { code?: string }).code !== '42P04') throw e;
      return false;
    }
    return true;
  } finally {
    await admin.end();
  }
}
