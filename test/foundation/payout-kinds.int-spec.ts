import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { PAYOUT_KIND_NAMES } from '#contracts';
import { createTestDatabase, type TestDatabase } from '#test-support';

/**
 * The payout kinds are listed once, in the contracts (PAYOUT_KIND_NAMES, from the `payout.<kind>`
 * commands). The table's CHECK is a migration's (history: never rewritten), so a test holds it to
 * that list: a new kind needs a migration that widens the CHECK, or its payouts could not be stored.
 */
describe('payout kinds in the database', () => {
  let db: TestDatabase;
  before(async () => {
    db = await createTestDatabase();
  });
  after(async () => {
    await db.drop();
  });

  it("the payout table's CHECK on kind allows exactly the contracts' kinds", async () => {
    const c = new pg.Client({ connectionString: db.url });
    await c.connect();
    try {
      const { rows } = await c.query<{ def: string }>(
        `SELECT pg_get_constraintdef(oid) AS def FROM pg_constraint
          WHERE conrelid = 'payout'::regclass AND contype = 'c'`,
      );
      const onKind = rows.map((r) => r.def).filter((d) => /\(kind\b/.test(d));
      assert.equal(onKind.length, 1, `one CHECK on payout.kind: ${JSON.stringify(rows)}`);
      // CHECK ((kind = ANY (ARRAY['standard_transfer'::text, ...])))
      const allowed = [...onKind[0]!.matchAll(/'([a-z_]+)'::text/g)].map((m) => m[1]!);
      assert.deepEqual([...allowed].sort(), [...PAYOUT_KIND_NAMES].sort());

      // The CHECK is live: a kind outside the list is refused.
      await assert.rejects(
        c.query(
          `INSERT INTO payout (account_id, transfer_id, kind, request_hash, request, amount)
           VALUES ('a', 't', 'batch_transfer', 'h', '{}', 1)`,
        ),
        /payout_kind_check/,
      );
    } finally {
      await c.end();
    }
  });
});
