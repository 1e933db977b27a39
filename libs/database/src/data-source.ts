import { DataSource } from 'typeorm';
import { migrations } from '#migrations';

/**
 * TypeORM is used for schema migrations only (reviewed SQL in migrations/, never `synchronize`).
 * Runtime queries go through repositories on a pg pool: see docs/adr/0002-typeorm-for-migrations.md.
 */
export function createMigrationDataSource(url: string): DataSource {
  return new DataSource({
    type: 'postgres',
    url,
    synchronize: false,
    migrationsRun: false,
    migrations,
    migrationsTableName: 'schema_migrations',
    migrationsTransactionMode: 'each',
    logging: ['error'],
    extra: { application_name: 'payouts-migrate', max: 2 },
  });
}

export interface MigrationReport {
  readonly applied: readonly string[];
}

export async function runMigrations(url: string): Promise<MigrationReport> {
  const ds = await createMigrationDataSource(url).initialize();
  try {
    // Serialise concurrent runners (several instances booting at once) on one advisory lock.
    await ds.query('SELECT pg_advisory_lock(7426001)');
    try {
      const done = await ds.runMigrations({ transaction: 'each' });
      return { applied: done.map((m) => m.name) };
    } finally {
      await ds.query('SELECT pg_advisory_unlock(7426001)');
    }
  } finally {
    await ds.destroy();
  }
}

export async function revertLastMigration(url: string): Promise<void> {
  const ds = await createMigrationDataSource(url).initialize();
  try {
    await ds.undoLastMigration({ transaction: 'each' });
  } finally {
    await ds.destroy();
  }
}
