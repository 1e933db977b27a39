import type pg from 'pg';

type Db = pg.Pool | pg.PoolClient;

/** A search, validated (OpsSearch builds it). Every field is optional but `limit`. */
export interface PayoutFilter {
  readonly statuses?: readonly string[];
  readonly kinds?: readonly string[];
  readonly accountId?: string;
  /** created_at >= from */
  readonly from?: Date;
  /** created_at < to */
  readonly to?: Date;
  readonly utr?: string;
  readonly transferIdPrefix?: string;
  /** The provider's sub-states (issue 29), of payouts and of batch entries alike. */
  readonly subStates?: readonly string[];
}

/** Where a page of payouts ended: Postgres's own text of created_at (microseconds kept), and id. */
export interface PayoutKey {
  readonly createdAt: string;
  readonly id: string;
}

/** One row of a search: a payout, or an entry of a batch (`batchTransferId` set). */
export interface SearchRow {
  /** payout.id; for an entry, its position in its batch. */
  readonly key: string;
  /** A payout's created_at as Postgres writes it (a JS Date would drop the microseconds). */
  readonly createdKey: string;
  readonly batchId: string | null;
  readonly accountId: string;
  readonly transferId: string;
  readonly batchTransferId: string | null;
  readonly kind: string;
  readonly status: string;
  readonly version: number;
  readonly amount: string;
  readonly utr: string | null;
  readonly referenceId: string | null;
  readonly reason: string | null;
  readonly subState: string | null;
  readonly request: Record<string, unknown>;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

interface Raw {
  key: string;
  created_key: string;
  batch_id: string | null;
  account_id: string;
  transfer_id: string;
  batch_transfer_id: string | null;
  kind: string;
  status: string;
  version: number;
  amount: string;
  utr: string | null;
  reference_id: string | null;
  reason: string | null;
  sub_state: string | null;
  request: Record<string, unknown>;
  created_at: Date;
  updated_at: Date;
}

const toRow = (r: Raw): SearchRow => ({
  key: String(r.key),
  createdKey: r.created_key,
  batchId: r.batch_id === null ? null : String(r.batch_id),
  accountId: r.account_id,
  transferId: r.transfer_id,
  batchTransferId: r.batch_transfer_id,
  kind: r.kind,
  status: r.status,
  version: r.version,
  amount: r.amount,
  utr: r.utr,
  referenceId: r.reference_id,
  reason: r.reason,
  subState: r.sub_state,
  request: r.request,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/** `abc_1` -> `abc\_1%`: a LIKE prefix that matches the characters as typed. */
export function likePrefix(prefix: string): string {
  return `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * The operations search. One statement per shape; a filter left out is a NULL parameter, which
 * Postgres folds away when it plans the statement with its values (pg sends unnamed statements),
 * so each search uses the index of its most selective filter (docs/OPERATIONS.md shows the plans).
 */
export class SearchRepository {
  /**
   * Payouts, newest first: (created_at, id) descending, after the cursor. One status is passed
   * as an equality ($2), not in the array ($1): Postgres 15 reads (status, created_at, id) in
   * order only for an equality, and a rare status (REQUIRES_ATTENTION) must not scan the table.
   */
  async payouts(db: Db, f: PayoutFilter, after: PayoutKey | null, limit: number): Promise<SearchRow[]> {
    const one = f.statuses?.length === 1 ? f.statuses[0]! : null;
    const { rows } = await db.query<Raw>(
      /* sql: search.payouts */ `SELECT id AS key, created_at::text AS created_key, NULL::bigint AS batch_id, account_id, transfer_id,
              NULL::text AS batch_transfer_id, kind, status, version, amount, utr, reference_id, reason, sub_state,
              request, created_at, updated_at
         FROM payout
        WHERE ($1::text[] IS NULL OR status = ANY($1::text[]))
          AND ($2::text IS NULL OR status = $2::text)
          AND ($3::text[] IS NULL OR kind = ANY($3::text[]))
          AND ($4::text IS NULL OR account_id = $4::text)
          AND ($5::timestamptz IS NULL OR created_at >= $5::timestamptz)
          AND ($6::timestamptz IS NULL OR created_at < $6::timestamptz)
          AND ($7::text IS NULL OR utr = $7::text)
          AND ($8::text IS NULL OR transfer_id LIKE $8::text)
          AND ($9::timestamptz IS NULL OR (created_at, id) < ($9::timestamptz, $10::bigint))
          AND ($12::text[] IS NULL OR sub_state = ANY($12::text[]))
        ORDER BY created_at DESC, id DESC
        LIMIT $11`,
      [
        one === null ? (f.statuses ?? null) : null,
        one,
        f.kinds ?? null,
        f.accountId ?? null,
        f.from ?? null,
        f.to ?? null,
        f.utr ?? null,
        f.transferIdPrefix === undefined ? null : likePrefix(f.transferIdPrefix),
        after?.createdAt ?? null,
        after?.id ?? null,
        limit,
        f.subStates ?? null,
      ],
    );
    return rows.map(toRow);
  }

  /**
   * The entries of the batches called `batchTransferId` (one per account), in batch then entry
   * order, after the cursor (batchId, position). Kind filters do not apply: every entry is a
   * `batch_entry`.
   */
  async batchEntries(
    db: Db,
    batchTransferId: string,
    f: PayoutFilter,
    after: { batchId: string; position: number } | null,
    limit: number,
  ): Promise<SearchRow[]> {
    const { rows } = await db.query<Raw>(
      /* sql: search.batchEntries */ `SELECT i.position AS key, b.created_at::text AS created_key, i.batch_id, b.account_id, i.transfer_id, b.batch_transfer_id,
              'batch_entry' AS kind, i.status, i.version, i.amount, i.utr, i.reference_id, i.reason,
              i.sub_state, i.entry AS request, b.created_at, i.updated_at
         FROM batch b JOIN batch_item i ON i.batch_id = b.id
        WHERE b.batch_transfer_id = $1
          AND ($2::text[] IS NULL OR i.status = ANY($2::text[]))
          AND ($3::text IS NULL OR b.account_id = $3::text)
          AND ($4::timestamptz IS NULL OR b.created_at >= $4::timestamptz)
          AND ($5::timestamptz IS NULL OR b.created_at < $5::timestamptz)
          AND ($6::text IS NULL OR i.utr = $6::text)
          AND ($7::text IS NULL OR i.transfer_id LIKE $7::text)
          AND ($8::bigint IS NULL OR (i.batch_id, i.position) > ($8::bigint, $9::int))
          AND ($11::text[] IS NULL OR i.sub_state = ANY($11::text[]))
        ORDER BY i.batch_id, i.position
        LIMIT $10`,
      [
        batchTransferId,
        f.statuses ?? null,
        f.accountId ?? null,
        f.from ?? null,
        f.to ?? null,
        f.utr ?? null,
        f.transferIdPrefix === undefined ? null : likePrefix(f.transferIdPrefix),
        after?.batchId ?? null,
        after?.position ?? 0,
        limit,
        f.subStates ?? null,
      ],
    );
    return rows.map(toRow);
  }
}
