import { qualify } from './sql.js';
import { type BatchItemRow, type BatchRow } from './ledger.types.js';
import { COLUMNS, type Db, ITEM_COLUMNS, type RawBatch, type RawItem, toItem, toRow } from './batch-row.js';

/**
 * The reads and the scheduling of `batch` and `batch_item` (next_check_at, leases, the lock a check
 * takes): none changes a state, which is the ledger's (BatchLedger, through its internal BatchMoves).
 * `updated_at` of both rows moves only with `version`: it is the time of the current version's
 * event (see batchStateEvent), so a reschedule or a claim for a check must not touch it.
 */
export class BatchRepository {
  /** findByIdentities: current rows, locked FOR SHARE (see PayoutRepository.findByIdentities). */
  async findByIdentities(
    db: Db,
    ids: ReadonlyArray<{ accountId: string; batchTransferId: string }>,
  ): Promise<BatchRow[]> {
    if (ids.length === 0) return [];
    const { rows } = await db.query<RawBatch>(
      /* sql: batch.findByIdentities */ `SELECT ${COLUMNS} FROM batch
        WHERE (account_id, batch_transfer_id) IN (SELECT * FROM unnest($1::text[], $2::text[]))
        ORDER BY id
          FOR SHARE`,
      [ids.map((i) => i.accountId), ids.map((i) => i.batchTransferId)],
    );
    return rows.map(toRow);
  }

  /**
   * claimDueChecks: batches to ask about now (open ones, COMPLETED ones under the failed watch of
   * their negative entries, and REQUIRES_ATTENTION ones under the attention watch, issue 29);
   * pushes next_check_at out by the lease (no event).
   */
  async claimDueChecks(db: Db, owner: string, leaseMs: number, limit: number): Promise<BatchRow[]> {
    const { rows } = await db.query<RawBatch>(
      /* sql: batch.claimDueChecks */ `UPDATE batch b
          SET next_check_at = now() + make_interval(secs => $2::double precision / 1000),
              check_count = b.check_count + 1, lease_owner = $1,
              lease_until = now() + make_interval(secs => $2::double precision / 1000)
        WHERE b.id IN (SELECT id FROM batch
                        WHERE status IN ('SUBMITTING', 'PROCESSING', 'UNKNOWN', 'COMPLETED', 'REQUIRES_ATTENTION')
                          AND next_check_at <= now()
                        ORDER BY next_check_at LIMIT $3 FOR UPDATE SKIP LOCKED)
        RETURNING ${qualify(COLUMNS, 'b')}, b.check_count`,
      [owner, leaseMs, limit],
    );
    return rows.map((r) => ({
      ...toRow(r),
      checkCount: (r as RawBatch & { check_count: number }).check_count,
    }));
  }

  /** findByEntry: the batch one of whose entries has this transferId (a webhook names entries). */
  async findByEntry(db: Db, accountId: string, transferId: string): Promise<BatchRow | undefined> {
    const { rows } = await db.query<RawBatch>(
      /* sql: batch.findByEntry */ `SELECT ${qualify(COLUMNS, 'b')} FROM batch b JOIN batch_item i ON i.batch_id = b.id
        WHERE b.account_id = $1 AND i.transfer_id = $2
        ORDER BY b.id DESC LIMIT 1`,
      [accountId, transferId],
    );
    return rows[0] ? toRow(rows[0]) : undefined;
  }

  /**
   * checkNow: a batch the status worker would look at anyway (SUBMITTING, PROCESSING, UNKNOWN, or
   * COMPLETED under the failed watch of its entries, or REQUIRES_ATTENTION under the attention
   * watch) is due now, unless a worker holds it. Not a state change: no version bump, no event.
   */
  async checkNow(db: Db, id: string): Promise<boolean> {
    const { rowCount } = await db.query(
      /* sql: batch.checkNow */ `UPDATE batch SET next_check_at = now()
        WHERE id = $1
          AND (status IN ('SUBMITTING', 'PROCESSING', 'UNKNOWN')
               OR (status IN ('COMPLETED', 'REQUIRES_ATTENTION') AND next_check_at IS NOT NULL))
          AND (lease_until IS NULL OR lease_until < now())`,
      [id],
    );
    return rowCount === 1;
  }

  /** reschedule: look again at `nextCheckAt` (null: stop looking, the end of a failed watch). */
  async reschedule(db: Db, id: string, version: number, nextCheckAt: Date | null): Promise<void> {
    await db.query(
      /* sql: batch.reschedule */ `UPDATE batch SET next_check_at = $3, lease_owner = NULL, lease_until = NULL WHERE id = $1 AND version = $2`,
      [id, version, nextCheckAt],
    );
  }

  async findOne(db: Db, accountId: string, batchTransferId: string): Promise<BatchRow | undefined> {
    const { rows } = await db.query<RawBatch>(
      /* sql: batch.findOne */ `SELECT ${COLUMNS} FROM batch WHERE account_id = $1 AND batch_transfer_id = $2`,
      [accountId, batchTransferId],
    );
    return rows[0] ? toRow(rows[0]) : undefined;
  }

  /** requiringAttention: batches a person must look at, oldest first. */
  async requiringAttention(db: Db, limit: number): Promise<BatchRow[]> {
    const { rows } = await db.query<RawBatch>(
      /* sql: batch.requiringAttention */ `SELECT ${COLUMNS} FROM batch WHERE status = 'REQUIRES_ATTENTION' ORDER BY updated_at, id LIMIT $1`,
      [limit],
    );
    return rows.map(toRow);
  }

  /**
   * Takes the batch row's lock for the rest of the caller's transaction. A check writes entry
   * events under the batch's key: holding the batch row first makes overlapping checks of one
   * batch commit in the order they draw event ids, so the relay never sees a newer one first.
   */
  async lockForEvents(db: Db, batchId: string): Promise<void> {
    await db.query(/* sql: batch.lockForEvents */ `SELECT 1 FROM batch WHERE id = $1 FOR UPDATE`, [batchId]);
  }

  async items(db: Db, batchId: string): Promise<BatchItemRow[]> {
    const { rows } = await db.query<RawItem>(
      /* sql: batch.items */ `SELECT ${ITEM_COLUMNS} FROM batch_item WHERE batch_id = $1 ORDER BY position`,
      [batchId],
    );
    return rows.map(toItem);
  }
}
