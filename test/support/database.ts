import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { databaseName, runMigrations, withDatabase } from '#database';

/** Base URL of the test server; the database part is replaced per test file. */
export const TEST_DATABASE_URL =
  process.env['TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/payouts_test';
export const TEMPLATE_DATABASE = `${databaseName(TEST_DATABASE_URL)}_template`;

/** Tests drop and create databases: never let them near one that is not obviously a test database. */
export function assertTestDatabase(url: string): void {
  const name = databaseName(url);
  if (!name.includes('test')) {
    throw new Error(
      `refusing to run tests against database ${JSON.stringify(name)}: its name must contain "test"`,
    );
  }
}

async function withAdmin<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: withDatabase(TEST_DATABASE_URL, 'postgres') });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** Drops and re-creates the migrated template. Run once per test run, before the files start. */
export async function prepareTemplate(): Promise<void> {
  const templateUrl = withDatabase(TEST_DATABASE_URL, TEMPLATE_DATABASE);
  assertTestDatabase(templateUrl);
  await withAdmin(async (c) => {
    await c.query(`DROP DATABASE IF EXISTS "${TEMPLATE_DATABASE}" WITH (FORCE)`);
    await c.query(`CREATE DATABASE "${TEMPLATE_DATABASE}"`);
  });
  await runMigrations(templateUrl);
}

export interface TestDatabase {
  readonly url: string;
  readonly name: string;
  drop(): Promise<void>;
}

/**
 * Drops a test database once its connections have gone, forcing it only after a grace period.
 * `pool.end()` resolves before every connection has closed, and a connection cut by
 * `WITH (FORCE)` while it closes emits an error the test may not listen for, which failed
 * unrelated tests now and then ("terminating connection due to administrator command").
 */
async function dropWhenQuiet(name: string, graceMs = 3_000): Promise<void> {
  await withAdmin(async (c) => {
    const deadline = Date.now() + graceMs;
    for (;;) {
      const { rows } = await c.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1',
        [name],
      );
      if ((rows[0]?.n ?? 0) === 0 || Date.now() > deadline) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  });
}

/** A database of this test file's own: migrated (cloned from the template) or empty. */
export async function createTestDatabase(options: { empty?: boolean } = {}): Promise<TestDatabase> {
  const name = `${databaseName(TEST_DATABASE_URL)}_${process.pid}_${randomBytes(3).toString('hex')}`;
  const url = withDatabase(TEST_DATABASE_URL, name);
  assertTestDatabase(url);
  await withAdmin((c) =>
    c.query(
      options.empty
        ? `CREATE DATABASE "${name}"`
        : `CREATE DATABASE "${name}" TEMPLATE "${TEMPLATE_DATABASE}"`,
    ),
  );
  return {
    url,
    name,
    drop: () => dropWhenQuiet(name),
  };
}
