import pg from 'pg';

// NUMERIC (1700) and BIGINT (20) come back as strings: money must never pass through a float,
// and ids can exceed 2^53.
pg.types.setTypeParser(1700, (v) => v);
pg.types.setTypeParser(20, (v) => v);

export interface PoolSettings {
  readonly url: string;
  readonly max: number;
  readonly applicationName: string;
  /** Server-side cap on any one statement, so a stuck query cannot hold a claim forever. */
  readonly statementTimeoutMs?: number;
  /**
   * Called when a pooled connection dies (database restart, network cut), idle or checked out.
   * pg emits that as an 'error' event, on the pool for an idle client and on the client itself
   * while it is checked out (e.g. a transaction waiting on Kafka); unhandled, either crashes the
   * process. The query in flight still fails, the pool replaces the connection, and readiness
   * reports the outage.
   */
  readonly onConnectionError: (e: Error) => void;
}

export function createPool(s: PoolSettings): pg.Pool {
  const pool = new pg.Pool({
    connectionString: s.url,
    max: s.max,
    application_name: s.applicationName,
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
    statement_timeout: s.statementTimeoutMs ?? 30_000,
  });
  pool.on('error', s.onConnectionError);
  pool.on('connect', (client) => client.on('error', s.onConnectionError));
  return pool;
}

/** The database name of a connection URL, for checks and messages (never the credentials). */
export function databaseName(url: string): string {
  return decodeURIComponent(new URL(url).pathname.replace(/^\//, ''));
}

/** The same server, another database. */
export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${encodeURIComponent(database)}`;
  return u.toString();
}

/** host:port/db, safe to print. */
export function describeDatabase(url: string): string {
  const u = new URL(url);
  return `${u.hostname}:${u.port || '5432'}/${databaseName(url)}`;
}
