import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freePort } from '#test-support';
import { PrivatePostgres } from './infra.js';

// Issue 24, finding 7: a checkout in a directory only its owner may enter (a home directory, or
// one made by mktemp -d, mode 0700) must still run the chaos suite's private PostgreSQL. The
// server runs as `postgres` (initdb refuses root) and could not write its log inside the checkout.
describe('the chaos run’s private PostgreSQL in a private checkout', () => {
  let home = '';
  let postgres: PrivatePostgres | undefined;
  after(async () => {
    await postgres?.destroy();
    if (home) await rm(home, { recursive: true, force: true });
  });

  it('starts, answers and leaves its log where the run keeps logs', async () => {
    home = await mkdtemp(join(tmpdir(), 'private-checkout-'));
    await chmod(home, 0o700);
    await mkdir(join(home, '.run', 'logs'), { recursive: true });
    const logFile = join(home, '.run', 'logs', 'postgres.log');
    postgres = new PrivatePostgres(await freePort(), logFile);
    await postgres.init();
    const client = new pg.Client({ connectionString: postgres.url('postgres') });
    await client.connect();
    try {
      assert.equal((await client.query<{ one: number }>('SELECT 1 AS one')).rows[0]?.one, 1);
    } finally {
      await client.end();
    }
    await postgres.destroy();
    postgres = undefined;
    assert.ok(existsSync(logFile), 'the server log is kept with the run’s logs');
    assert.match(await readFile(logFile, 'utf8'), /database system is ready to accept connections/);
  });
});
