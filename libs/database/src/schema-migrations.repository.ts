import type pg from 'pg';

/**
 * What `schema_migrations` (TypeORM's table, data-source.ts) says is applied: the names, or
 * undefined when the table does not exist (a database never migrated).
 */
export async function appliedMigrations(client: pg.ClientBase): Promise<Set<string> | undefined> {
  const table = await client.query<{ t: string | null }>(
    /* sql: schemaMigrations.appliedMigrations.table */ `SELECT to_regclass('schema_migrations')::text AS t`,
  );
  if (!table.rows[0]?.t) return undefined;
  const { rows } = await client.query<{ name: string }>(
    /* sql: schemaMigrations.appliedMigrations */ `SELECT name FROM schema_migrations`,
  );
  return new Set(rows.map((r) => r.name));
}
