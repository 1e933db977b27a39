import pg from 'pg';
import { migrations } from '#migrations';
import { describeDatabase } from './pg-pool.js';
import { appliedMigrations } from './schema-migrations.repository.js';

/** The migrations this version needs, by the name TypeORM records in schema_migrations. */
export const MIGRATION_NAMES: readonly string[] = migrations.map((m) => m.name);

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

/**
 * One connection, within `timeoutMs`, and a look at the schema: a database this version's
 * migrations have not all reached is not up yet (the migration Job may still be running; if it
 * never runs, the wait ends in exit 69 saying so). Messages carry host:port/db, never credentials.
 */
export async function probePostgres(
  url: string,
  timeoutMs = 3_000,
  needed: readonly string[] = MIGRATION_NAMES,
): Promise<PostgresProbe> {
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
    const missing = await missingMigrations(client, needed);
    if (missing.length > 0)
      return {
        state: 'unavailable',
        reason: `${where}: ${missing.length === needed.length ? 'the database has no schema' : `the schema lacks ${missing.length} migration(s) of this version (first: ${missing[0]})`}; run the migrations (node dist/libs/database/src/cli/migrate.js run; the Helm chart's migration Job)`,
      };
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

async function missingMigrations(client: pg.Client, needed: readonly string[]): Promise<string[]> {
  const applied = await appliedMigrations(client);
  return applied ? needed.filter((n) => !applied.has(n)) : [...needed];
}
