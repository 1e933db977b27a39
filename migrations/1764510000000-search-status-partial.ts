import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Issue 23: fewer index entries per payout. A status update is never HOT (status is in the
 * predicates of payout_received_idx and payout_due_check_idx), so every row version of a payout
 * gets an entry in every index whose predicate it meets. `payout_search_status_idx` (status,
 * created_at, id) had no predicate: three entries per payout (RECEIVED, SUBMITTING, SUCCESS), read
 * only by the operations search for one status.
 *
 * Replaced by the same index over the statuses a search needs it for, which leaves out the two a
 * payout passes through on the happy path without an operator looking for it by status:
 * - RECEIVED: payout_received_idx (created_at) WHERE status = 'RECEIVED' serves that search.
 * - SUCCESS: most of the table; newest first along payout_search_created_idx finds a page of it
 *   after reading about as many rows.
 * SUBMITTING stays in: few rows at rest, and a search for the stuck ones must not read the table.
 * A positive list (not NOT IN) so that the search's `status = $2` provably implies the predicate.
 */
export class SearchStatusPartial1764510000000 implements MigrationInterface {
  name = 'SearchStatusPartial1764510000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `CREATE INDEX payout_search_status_part_idx ON payout (status, created_at, id)
         WHERE status IN ('SUBMITTING', 'PENDING', 'UNKNOWN', 'FAILED', 'REJECTED', 'REVERSED', 'REQUIRES_ATTENTION')`,
    );
    await q.query(`DROP INDEX payout_search_status_idx`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX payout_search_status_idx ON payout (status, created_at, id)`);
    await q.query(`DROP INDEX IF EXISTS payout_search_status_part_idx`);
  }
}
