import type pg from 'pg';
import { qualify } from './sql.js';
import { type BatchStatus } from '#contracts';
import { type BatchItemRow, type BatchRow, type BatchTotals, type NewBatch } from './ledger.types.js';

type Db = pg.Pool | pg.PoolClient;

const COLUMNS = `id, account_id, batch_transfer_id, batch_format, request_hash, entry_count, total_amount,
  status, version, attempt, reference_id, status_code, reason, request_id, totals, created_at, updated_at, traceparent`;

interface RawBatch {
  id: string;
  account_id: string;
  batch_transfer_id: string;
  batch_format: BatchRow['batchFormat'];
  request_hash: string;
  entry_count: number;
  total_amount: string;
  status: BatchStatus;
  version: number;
  attempt: number;
  reference_id: string | null;
  status_code: string | null;
  reason: string | null;
  request_id: string | null;
  totals: BatchTotals | null;
  created_at: Date;
  updated_at: Date;
  traceparent: string | null;
}

const ITEM_COLUMNS =
  'batch_id, transfer_id, position, amount, entry, status, version, reference_id, utr, reason, updated_at';

interface RawItem {
  batch_id: string;
  transfer_id: string;
  position: number;
  amount: string;
  entry: Record<string, unknown>;
  status: string;
  version: number;
  reference_id: string | null;
  utr: string | null;
  reason: string | null;
  updated_at: Date;
}

function toItem(r: RawItem): BatchItemRow {
  return {
    batchId: r.batch_id,
    transferId: r.transfer_id,
    position: r.position,
    amount: r.amount,
    entry: r.entry,
    status: r.status,
    version: r.version,
    referenceId: r.reference_id,
    utr: r.utr,
    reason: r.reason,
    updatedAt: r.updated_at,
  };
}

function toRow(r: RawBatch): BatchRow {
  return {
    id: r.id,
    accountId: r.account_id,
    batchTransferId: r.batch_transfer_id,
    batchFormat: r.batch_format,
    requestHash: r.request_hash,
    entryCount: r.entry_count,
    totalAmount: r.total_amount,
    status: r.status,
    version: r.version,
    attempt: r.attempt,
    referenceId: r.reference_id,
    statusCode: r.status_code,
    reason: r.reason,
    requestId: r.request_id,
    totals: r.totals,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    traceparent: r.traceparent,
  };
}

/**
 * Every statement on `batch` and `batch_item`. `updated_at` of both moves only with `version`:
 * it is the time of the current version's event (see batchStateEvent), so a reschedule or a
 * claim for a check must not touch it.
 */
export class BatchRepository {
  /** insertNew: the parent and all its items, or nothing when the batch id exists. */
  async insertNew(db: pg.PoolClient, b: NewBatch): Promise<BatchRow | undefined> {
    const { rows } = await db.query<RawBatch>(
      /* sql: batch.insertNew */ `INSERT INTO batch (account_id, batch_transfer_id, batch_format, request_hash, entry_count, total_amount, request_id, traceparent)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
       ON CONFLICT (account_id, batch_transfer_id) DO NOTHING
       RETURNING ${COLUMNS}`,
      [
        b.accountId,
        b.batchTransferId,
        b.batchFormat,
        b.requestHash,
        b.entries.length,
        b.totalAmount,
        b.requestId,
        b.traceparent ?? null,
      ],
    );
    const parent = rows[0];
    if (!parent) return undefined;
    await db.query(
      /* sql: batch.insertNew.items */ `INSERT INTO batch_item (batch_id, transfer_id, position, amount, entry)
       SELECT $1, t.transfer_id, t.position, t.amount, t.entry
         FROM unnest($2::text[], $3::int[], $4::numeric[], $5::jsonb[]) AS t(transfer_id, position, amount, entry)`,
      [
        parent.id,
        b.entries.map((e) => e.transferId),
        b.entries.map((_, i) => i),
        b.entries.map((e) => e.amount),
        b.entries.map((e) => JSON.stringify(e.entry)),
      ],
    );
    return toRow(parent);
  }

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

  async claimForSubmission(db: Db, owner: string, leaseMs: number, limit: number): Promise<BatchRow[]> {
    const { rows } = await db.query<RawBatch>(
      /* sql: batch.claimForSubmission */ `UPDATE batch b
          SET status = 'SUBMITTING', version = b.version + 1, attempt = b.attempt + 1, totals = NULL, lease_owner = $1,
              lease_until = now() + make_interval(secs => $2::double precision / 1000),
              next_check_at = now() + make_interval(secs => $2::double precision / 1000), updated_at = now()
        WHERE b.id IN (SELECT id FROM batch WHERE status = 'RECEIVED' ORDER BY created_at LIMIT $3 FOR UPDATE SKIP LOCKED)
        RETURNING ${qualify(COLUMNS, 'b')}`,
      [owner, leaseMs, limit],
    );
    return rows.map(toRow);
  }

  async transition(
    db: Db,
    id: string,
    fromVersion: number,
    to: BatchStatus,
    f: {
      referenceId?: string | null;
      statusCode?: string | null;
      reason?: string | null;
      nextCheckAt?: Date | null;
      /** The totals the new version's event carries (none: the entry count only). */
      totals?: BatchTotals | null;
    },
  ): Promise<BatchRow | undefined> {
    const { rows } = await db.query<RawBatch>(
      /* sql: batch.transition */ `
      UPDATE batch
          SET status = $3, version = version + 1, updated_at = now(),
              reference_id = COALESCE($4, reference_id), status_code = COALESCE($5, status_code),
              reason = COALESCE($6, reason), next_check_at = $7, lease_owner = NULL, lease_until = NULL,
              totals = $8::jsonb
        WHERE id = $1 AND version = $2
        RETURNING ${COLUMNS}`,
      [
        id,
        fromVersion,
        to,
        f.referenceId ?? null,
        f.statusCode ?? null,
        f.reason ?? null,
        f.nextCheckAt ?? null,
        f.totals ? JSON.stringify(f.totals) : null,
      ],
    );
    return rows[0] ? toRow(rows[0]) : undefined;
  }

  /**
   * markResent: a SUBMITTING or UNKNOWN batch is sent again with the same batchTransferId (a state
   * change: version and attempt bump, the caller writes its event). It stays due after the lease,
   * so a crash during the call brings it back to a status check; the check count carries on, so
   * the reconciliation schedule bounds re-sends as it bounds checks.
   */
  async markResent(
    db: Db,
    id: string,
    fromVersion: number,
    owner: string,
    leaseMs: number,
  ): Promise<BatchRow | undefined> {
    const { rows } = await db.query<RawBatch>(
      /* sql: batch.markResent */ `
      UPDATE batch
          SET status = 'SUBMITTING', version = version + 1, attempt = attempt + 1, updated_at = now(),
              totals = NULL, lease_owner = $3,
              lease_until = now() + make_interval(secs => $4::double precision / 1000),
              next_check_at = now() + make_interval(secs => $4::double precision / 1000)
        WHERE id = $1 AND version = $2 AND status IN ('SUBMITTING', 'UNKNOWN')
        RETURNING ${COLUMNS}`,
      [id, fromVersion, owner, leaseMs],
    );
    return rows[0] ? toRow(rows[0]) : undefined;
  }

  /** claimDueChecks: batches to ask about now; pushes next_check_at out by the lease (no event). */
  async claimDueChecks(db: Db, owner: string, leaseMs: number, limit: number): Promise<BatchRow[]> {
    const { rows } = await db.query<RawBatch>(
      /* sql: batch.claimDueChecks */ `UPDATE batch b
          SET next_check_at = now() + make_interval(secs => $2::double precision / 1000),
              check_count = b.check_count + 1, lease_owner = $1,
              lease_until = now() + make_interval(secs => $2::double precision / 1000)
        WHERE b.id IN (SELECT id FROM batch
                        WHERE status IN ('SUBMITTING', 'PROCESSING', 'UNKNOWN') AND next_check_at <= now()
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
   * checkNow: a batch the status worker would look at anyway (SUBMITTING, PROCESSING, UNKNOWN) is
   * due now, unless a worker holds it. Not a state change: no version bump, no event.
   */
  async checkNow(db: Db, id: string): Promise<boolean> {
    const { rowCount } = await db.query(
      /* sql: batch.checkNow */ `UPDATE batch SET next_check_at = now()
        WHERE id = $1 AND status IN ('SUBMITTING', 'PROCESSING', 'UNKNOWN')
          AND (lease_until IS NULL OR lease_until < now())`,
      [id],
    );
    return rowCount === 1;
  }

  async reschedule(db: Db, id: string, version: number, nextCheckAt: Date): Promise<void> {
    await db.query(
      /* sql: batch.reschedule */ `UPDATE batch SET next_check_at = $3, lease_owner = NULL, lease_until = NULL WHERE id = $1 AND version = $2`,
      [id, version, nextCheckAt],
    );
  }

  /**
   * updateItems: applies the provider's per-entry results in one statement; only entries whose
   * status (or utr) actually changed are touched and returned, each with its version bumped.
   * Entries only move forwards: a final state is kept (SUCCESS may still become REVERSED). The
   * rule is checked here, on the row as it is when locked, because two checks of one batch may
   * overlap: the one with the older answer may write last.
   */
  async updateItems(
    db: pg.PoolClient,
    batchId: string,
    updates: ReadonlyArray<{
      transferId: string;
      status: string;
      referenceId: string | null;
      utr: string | null;
      reason: string | null;
    }>,
  ): Promise<BatchItemRow[]> {
    if (updates.length === 0) return [];
    const { rows } = await db.query<RawItem>(
      /* sql: batch.updateItems */ `UPDATE batch_item i
          SET status = u.status, version = i.version + 1, updated_at = now(),
              reference_id = COALESCE(u.reference_id, i.reference_id), utr = COALESCE(u.utr, i.utr),
              reason = COALESCE(u.reason, i.reason)
         FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[])
              AS u(transfer_id, status, reference_id, utr, reason)
        WHERE i.batch_id = $1 AND i.transfer_id = u.transfer_id
          AND (i.status IS DISTINCT FROM u.status OR (u.utr IS NOT NULL AND i.utr IS DISTINCT FROM u.utr))
          AND (i.status = u.status
               OR i.status NOT IN ('SUCCESS', 'FAILED', 'REJECTED', 'REVERSED')
               OR (i.status = 'SUCCESS' AND u.status = 'REVERSED'))
        RETURNING ${qualify(ITEM_COLUMNS, 'i')}`,
      [
        batchId,
        updates.map((u) => u.transferId),
        updates.map((u) => u.status),
        updates.map((u) => u.referenceId),
        updates.map((u) => u.utr),
        updates.map((u) => u.reason),
      ],
    );
    return rows.map(toItem);
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
