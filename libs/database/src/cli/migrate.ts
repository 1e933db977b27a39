/**
 * `npm run migration:run` / `migration:revert`: creates the database when missing, then applies
 * (or reverts the last of) the migrations in migrations/.
 */
import { coreConfig, loadConfig, ConfigError } from '#config';
import { describeDatabase, ensureDatabase, revertLastMigration, runMigrations } from '#database';

async function main(): Promise<void> {
  const [core] = loadConfig([coreConfig]);
  const url = core.DATABASE_URL;
  const command = process.argv[2] ?? 'run';
  if (await ensureDatabase(url)) console.log(`created database ${describeDatabase(url)}`);
  switch (command) {
    case 'run': {
      const { applied } = await runMigrations(url);
      console.log(
        applied.length ? `applied ${applied.join(', ')}` : `schema of ${describeDatabase(url)} is up to date`,
      );
      return;
    }
    case 'revert':
      await revertLastMigration(url);
      console.log(`reverted the last migration of ${describeDatabase(url)}`);
      return;
    default:
      throw new Error(`unknown command ${command}; use run or revert`);
  }
}

main().catch((e: unknown) => {
  console.error(e instanceof ConfigError || e instanceof Error ? e.message : e);
  process.exit(1);
});
