/**
 * `npm run sql`: writes each repository's queries to its checked-in `libs/<lib>/sql/*.sql` file
 * (see scripts/sql-files.ts) and deletes generated files whose source has no tagged query left.
 * `node dist/scripts/sql.js --check` (a step of `npm test`) writes nothing and fails when a file is
 * missing, stale or no longer generated, or a query is untagged.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { findDrift, generateSqlFiles, SqlGenerationError } from './sql-files.js';

const root = resolve(import.meta.dirname, '../..');
const check = process.argv.includes('--check');

try {
  const files = await generateSqlFiles(root);
  const drift = findDrift(root, files);
  if (check) {
    for (const d of drift) console.error(`${d.path}: ${d.problem} (${d.detail})`);
    if (drift.length > 0) {
      console.error(
        `checked-in SQL drifted from the repositories: run \`npm run sql\` and commit the result`,
      );
      process.exitCode = 1;
    } else {
      const n = files.reduce((a, f) => a + f.queries.length, 0);
      console.log(`checked-in SQL is current: ${files.length} files, ${n} queries`);
    }
  } else {
    for (const d of drift) {
      const abs = join(root, d.path);
      if (d.problem === 'not generated') {
        rmSync(abs);
        console.log(`deleted ${d.path}`);
        continue;
      }
      const file = files.find((f) => f.path === d.path)!;
      mkdirSync(dirname(abs), { recursive: true });
      writeFileSync(abs, file.text);
      console.log(`wrote ${d.path}`);
    }
    if (drift.length === 0) console.log(`checked-in SQL already current (${files.length} files)`);
  }
} catch (e) {
  if (!(e instanceof SqlGenerationError)) throw e;
  console.error(e.message);
  process.exitCode = 1;
}
