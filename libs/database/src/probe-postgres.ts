import pg from 'pg';
import { describeDatabase } from './pg-pool.js';

export type PostgresProbe =
  | { readonly state: 'up' }
  | { readonly state: 'unavailable'; readonly reason: string }
  | { readonly state: 'misconfigured'; readonly variable: 'DATABASE_URL'; readonly reason: string };

/**
 * SQLSTATEs that mean the server answered and refused this URL: waiting will not change them.
 * invalid_catalog_name (no such database), invalid_password, invalid_authorization_specification
 * (no such role, no pg_hba entry).
 */
const REFUSALS: Readonly<Record<string, string>> = {
  '3D000': 'the database does not exist (create it, then run the migrations)',
  '28P01': 'the server refused the password',
  '28000': 'the server refused the role or this client (pg_hba.conf)',
};

/** One connection and `SELECT 1`, within `timeoutMs`. Messages carry host:port/db, never credentials. */
export async function probePostgres(url: string, timeoutMs = 3_000): Promise<PostgresProbe> {
  const where = describeDatabase(url);
  const client = new pg.Client({
    connectionString: url,
    connectionTimeoutMillis: timeoutMs,
    query_timeout: timeoutMs,
    application_name: 'payouts-boot-probe',
  });
  // A connection that dies after the probe gave up must not crash the process.
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('SELECT 1');
    return { state: 'up' };
  } catch (e) {
    const code = (e as { code?: unknown }).code;
    const message = e instanceof Error ? e.message : String(e);
    const refusal = typeof code === 'string' ? REFUSALS[code] : undefined;
    if (refusal)
      return {
        state: 'misconfigured',
        variable: 'DATABASE_URL',
        reason: `${where}: ${refusal} (${message})`,
      };
    return { state: 'unavailable', reason: `${where}: ${message || 'no answer'}` };
  } finally {
    await client.end().catch(() => undefined);
  }
}
