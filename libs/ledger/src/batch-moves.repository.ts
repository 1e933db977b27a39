import type pg from 'pg';
import { fromPaise } from './money.js';
import { qualify } from './sql.js';
import { type BatchStatus } from '#contracts';
import {
  type BatchEntryUpdate,
  type BatchItemRow,
  type BatchRow,
  type BatchTotals,
  type HeldTransferIds,
  type NewBatch,
} from './ledger.types.js';
import { COLUMNS, type Db, ITEM_COLUMNS, type RawBatch, type RawItem, toItem, toRow } from './batch-row.js';
import { type FundsClaimFacts, type FundsGuard, type FundsSendResult } from './funds-claim.js';
import {
  FUNDS_BOUND,
  fundsFacts,
  FUNDS_GUARDED,
  fundsCounted,
  fundsGuard,
  type FundsFactsRead,
  guardedSend,
  inOrderOf,
  type RawFundsFacts,
  type RawGuardedSend,
  toFundsFacts,
  toFundsGuard,
} from './funds-claim.repository.js';

/**
 * The candidates of a funds round (BatchMoves.fundsRound), after its `facts` CTE: the first $2
 * held and the first $2 new batches of account $1, merged oldest first, each row with the facts.
 */
const BATCH_FUNDS_CANDIDATES = `held AS (
         SELECT id, version, status, batch_transfer_id, total_amount, entry_count, held_since, created_at FROM batch
          WHERE status = 'HELD_FOR_FUNDS' AND account_id = $1 ORDER BY created_at LIMIT $2
       ), fresh AS (
         SELECT id, version, status, batch_transfer_id, total_amount, entry_count, held_since, created_at FROM batch
          WHERE status = 'RECEIVED' AND account_id = $1 ORDER BY created_at LIMIT $2
       )
       SELECT f.*, c.id, c.version, c.status, c.batch_transfer_id, c.total_amount, c.entry_count, c.held_since
         FROM facts f LEFT JOIN (SELECT * FROM held UNION ALL SELECT * FROM fresh) AS c ON true
        ORDER BY c.created_at, c.id`;

/** A waiting batch of a held account as a funds round reads it (see PayoutMoves.fundsRound). */
export interface FundsCandidateBatch {
  readonly batch: Pick<
    BatchRow,
    'id' | 'version' | 'status' | 'batchTransferId' | 'totalAmount' | 'entryCount'
  >;
  /** When it was first held (null: never). */
  readonly heldSince: Date | null;
}

/**
 * Every statement that changes the state of a batch or of its entries (status and version): the
 * ledger's own, and only its (ADR 0003, amendment), as PayoutMoves is for payouts. `updated_at`
 * of both rows moves only with `version` (see BatchRepository).
 */
export class BatchMoves {
  /**
   * `failedWatchFirstMs`: a batch entering COMPLETED with a FAILED, REJECTED or REVERSED entry gets
   * its first failed-watch check this long after (ADR 0018, issue 29); null: no watch.
   */
  constructor(private readonly failedWatchFirstMs: number | null = null) {}

  /**
   * insertNew: the parent and all its items, or nothing when the batch id exists. Each entry takes
   * its (account, transferId) in `transfer_identity`, the one namespace single payouts and batch
   * entries share (issue 29): when one is held already, the answer names the held ids, in entry
   * order, and the items are not written; the caller (BatchLedger.admit, in a savepoint) undoes
   * the parent and the ids taken, as a batch is sent whole.
   */
  async insertNew(db: pg.PoolClient, b: NewBatch): Promise<BatchRow | HeldTransferIds | undefined> {
    const { rows } = await db.query<RawBatch>(
      /* sql: batch.insertNew */ `INSERT INTO batch (account_id, batch_transfer_id, batch_format, request_hash, entry_count, total_amount, request_id, traceparent, provider_api)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
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
        b.providerApi ?? 'v1',
      ],
    );
    const parent = rows[0];
    if (!parent) return undefined;
    const ids = b.entries.map((e) => e.transferId);
    const { rows: claimed } = await db.query<{ transfer_id: string }>(
      /* sql: batch.insertNew.identities */ `INSERT INTO transfer_identity (account_id, transfer_id, batch_id)
       SELECT $1, t.transfer_id, $2 FROM unnest($3::text[]) AS t(transfer_id) ORDER BY t.transfer_id
       ON CONFLICT DO NOTHING
       RETURNING transfer_id`,
      [b.accountId, parent.id, ids],
    );
    if (claimed.length < ids.length) {
      const taken = new Set(claimed.map((r) => r.transfer_id));
      return { held: ids.filter((id) => !taken.has(id)) };
    }
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

  async claimForSubmission(
    db: Db,
    owner: string,
    leaseMs: number,
    limit: number,
    exceptAccounts: readonly string[] = [],
  ): Promise<BatchRow[]> {
    if (exceptAccounts.length > 0) {
      // The claim of the accounts not in FUNDS_HOLD (ADR 0027): today's claim but for the held
      // accounts, whose batches only the funds-aware claim sends (a statement of its own: with holding
      // off the claim is today's, byte for byte).
      const { rows } = await db.query<RawBatch>(
        /* sql: batch.claimForSubmission.exceptHeld */ `UPDATE batch b
            SET status = 'SUBMITTING', version = b.version + 1, attempt = b.attempt + 1, totals = NULL, lease_owner = $1,
                lease_until = now() + make_interval(secs => $2::double precision / 1000),
                next_check_at = now() + make_interval(secs => $2::double precision / 1000), updated_at = now()
          WHERE b.id IN (SELECT id FROM batch WHERE status = 'RECEIVED' AND account_id <> ALL($4::text[])
                          ORDER BY created_at LIMIT $3 FOR UPDATE SKIP LOCKED)
          RETURNING ${qualify(COLUMNS, 'b')}`,
        [owner, leaseMs, limit, exceptAccounts],
      );
      return rows.map(toRow);
    }
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

  /**
   * The held-for-funds batches of accounts no longer in FUNDS_HOLD, sent as today's claim sends
   * them (see PayoutMoves.claimHeldOfUnheld; through batch_held_for_funds_idx).
   */
  async claimHeldOfUnheld(
    db: Db,
    owner: string,
    leaseMs: number,
    limit: number,
    heldAccounts: readonly string[],
  ): Promise<BatchRow[]> {
    const { rows } = await db.query<RawBatch>(
      /* sql: batch.claimHeldOfUnheld */ `UPDATE batch b
          SET status = 'SUBMITTING', version = b.version + 1, attempt = b.attempt + 1, totals = NULL, lease_owner = $1,
              lease_until = now() + make_interval(secs => $2::double precision / 1000),
              next_check_at = now() + make_interval(secs => $2::double precision / 1000), updated_at = now(),
              reason = NULL
        WHERE b.id IN (SELECT id FROM batch WHERE status = 'HELD_FOR_FUNDS' AND account_id <> ALL($4::text[])
                        ORDER BY created_at LIMIT $3 FOR UPDATE SKIP LOCKED)
        RETURNING ${qualify(COLUMNS, 'b')}`,
      [owner, leaseMs, limit, heldAccounts],
    );
    return rows.map(toRow);
  }

  /**
   * A funds round's read, one statement (see PayoutMoves.fundsRound): the reading row's guard, the
   * facts (the bound or the exact sum, `how`) and the first waiting batches of the account (RECEIVED and HELD_FOR_FUNDS), oldest
   * first, at most `limit` of each status, each through its own partial index, merged in order;
   * light rows, no row locks.
   */
  async fundsRound(
    db: Db,
    accountId: string,
    limit: number,
    how: FundsFactsRead,
    feePaise: bigint,
  ): Promise<{ facts: FundsClaimFacts | null; candidates: FundsCandidateBatch[]; guard: FundsGuard | null }> {
    type Raw = RawFundsFacts & {
      id: string | null;
      version: number;
      status: BatchStatus;
      batch_transfer_id: string;
      total_amount: string;
      entry_count: number;
      held_since: Date | null;
    };
    const { rows } =
      how === 'bound'
        ? await db.query<Raw>(
            /* sql: batch.fundsRound.bound */ `WITH facts AS MATERIALIZED (${FUNDS_BOUND}), ${BATCH_FUNDS_CANDIDATES}`,
            [accountId, limit],
          )
        : await db.query<Raw>(
            /* sql: batch.fundsRound */ `WITH facts AS MATERIALIZED (${fundsFacts('$3')}), ${BATCH_FUNDS_CANDIDATES}`,
            [accountId, limit, fromPaise(feePaise)],
          );
    const first = rows[0];
    if (!first) throw new Error('the funds round read no facts');
    return {
      facts: toFundsFacts(first),
      guard: toFundsGuard(first),
      candidates: rows.flatMap((r) =>
        r.id === null
          ? []
          : [
              {
                batch: {
                  id: r.id,
                  version: r.version,
                  status: r.status,
                  batchTransferId: r.batch_transfer_id,
                  totalAmount: r.total_amount,
                  entryCount: r.entry_count,
                },
                heldSince: r.held_since,
              },
            ],
      ),
    };
  }

  /**
   * The funds-aware claim's send (ADR 0027): RECEIVED or HELD_FOR_FUNDS to SUBMITTING exactly as
   * the claim does, from the version (and status) the caller read, with `sent_at`; a held batch's
   * hold reason is cleared. Only while the account's reading row is as the round read it (`guard`,
   * see PayoutMoves.sendFunded: payouts and batches spend one room); their totals are added to its
   * `sent_total` in the same statement (FUNDS_BOUND). The moved rows, with the status each left
   * (for the history).
   */
  async sendFunded(
    db: Db,
    accountId: string,
    owner: string,
    leaseMs: number,
    from: ReadonlyArray<Pick<BatchRow, 'id' | 'version' | 'status'>>,
    guard: FundsGuard,
    feePaise: bigint,
  ): Promise<FundsSendResult<{ batch: BatchRow; from: BatchStatus }>> {
    if (from.length === 0) return { guarded: true, rows: [], sentTotal: null };
    const { rows } = await db.query<RawBatch & RawGuardedSend & { h_from: BatchStatus }>(
      /* sql: batch.sendFunded */ `WITH ${fundsGuard('$6', '$7', '$8')}, changed AS (
         UPDATE batch b
            SET status = 'SUBMITTING', version = b.version + 1, attempt = b.attempt + 1, totals = NULL, lease_owner = $1,
                lease_until = now() + make_interval(secs => $2::double precision / 1000),
                next_check_at = now() + make_interval(secs => $2::double precision / 1000), updated_at = now(),
                sent_at = statement_timestamp(), reason = CASE WHEN b.status = 'HELD_FOR_FUNDS' THEN NULL ELSE b.reason END
           FROM unnest($3::bigint[], $4::int[], $5::text[]) AS m(id, from_version, from_status)
          WHERE b.id = ANY($3::bigint[]) AND b.id = m.id AND b.version = m.from_version
                AND b.status IN ('RECEIVED', 'HELD_FOR_FUNDS') AND EXISTS (SELECT 1 FROM guard)
          RETURNING ${qualify(COLUMNS, 'b')}, m.from_status AS h_from
       ), ${fundsCounted('batch', '$6', '$9')}
       SELECT g.*, c.* FROM ${FUNDS_GUARDED} g LEFT JOIN changed c ON true`,
      [
        owner,
        leaseMs,
        from.map((r) => r.id),
        from.map((r) => r.version),
        from.map((r) => r.status),
        accountId,
        guard.sentTotal,
        guard.readAt,
        fromPaise(feePaise),
      ],
    );
    return guardedSend(rows, (moved) =>
      inOrderOf(from, moved).map((r) => ({ batch: toRow(r), from: r.h_from })),
    );
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
      UPDATE batch b
          SET status = $3, version = b.version + 1, updated_at = now(),
              reference_id = COALESCE($4, b.reference_id), status_code = COALESCE($5, b.status_code),
              reason = COALESCE($6, b.reason), lease_owner = NULL, lease_until = NULL,
              -- Held for funds (ADR 0027): since its first hold, kept after it leaves.
              held_since = CASE WHEN $3 = 'HELD_FOR_FUNDS' THEN COALESCE(b.held_since, now()) ELSE b.held_since END,
              -- The provider's answer that it took the money (ADR 0027), for the batches the
              -- funds-aware claim sent only: a reading asked after it includes the batch. COMPLETED,
              -- not PROCESSING: the provider debits the entries as it processes them, after it
              -- accepted the batch, so a PROCESSING batch counts as in doubt.
              taken_at = CASE WHEN $3 = 'COMPLETED' AND b.sent_at IS NOT NULL AND b.taken_at IS NULL
                              THEN now() ELSE b.taken_at END,
              totals = $8::jsonb,
              -- The failed watch of its entries (ADR 0018): set here, on entering COMPLETED with a
              -- negative entry, whoever completes it; the watch has its own count.
              next_check_at = CASE
                WHEN $3 = 'COMPLETED' AND b.status <> 'COMPLETED' AND $7::timestamptz IS NULL
                     AND $9::double precision IS NOT NULL
                     AND EXISTS (SELECT 1 FROM batch_item i WHERE i.batch_id = b.id
                                    AND i.status IN ('FAILED', 'REJECTED', 'REVERSED'))
                THEN now() + make_interval(secs => $9::double precision / 1000)
                ELSE $7::timestamptz END,
              check_count = CASE WHEN $3 = 'COMPLETED' AND b.status <> 'COMPLETED' THEN 0 ELSE b.check_count END
        WHERE b.id = $1 AND b.version = $2
        RETURNING ${qualify(COLUMNS, 'b')}`,
      [
        id,
        fromVersion,
        to,
        f.referenceId ?? null,
        f.statusCode ?? null,
        f.reason ?? null,
        f.nextCheckAt ?? null,
        f.totals ? JSON.stringify(f.totals) : null,
        this.failedWatchFirstMs,
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

  /**
   * updateItems: applies the provider's per-entry results in one statement; only entries whose
   * status (or utr, or where an open entry waits at the provider) actually changed are touched and
   * returned, each with its version bumped. Entries only move forwards: a final state is kept
   * (SUCCESS may still become REVERSED). The rule is checked here, on the row as it is when
   * locked, because two checks of one batch may overlap: the one with the older answer may write
   * last. The sub-state (issue 29), as a payout's: a new one is a new version; an answer that names
   * none takes nothing back while the status stays; a new status without one clears it, and a
   * terminal state always does.
   */
  async updateItems(
    db: pg.PoolClient,
    batchId: string,
    updates: readonly BatchEntryUpdate[],
  ): Promise<BatchItemRow[]> {
    if (updates.length === 0) return [];
    const { rows } = await db.query<RawItem>(
      /* sql: batch.updateItems */ `UPDATE batch_item i
          SET status = u.status, version = i.version + 1, updated_at = now(),
              reference_id = COALESCE(u.reference_id, i.reference_id), utr = COALESCE(u.utr, i.utr),
              reason = COALESCE(u.reason, i.reason),
              sub_state = CASE WHEN u.status IN ('SUCCESS', 'FAILED', 'REJECTED', 'REVERSED') THEN NULL
                               WHEN u.sub_state IS NOT NULL THEN u.sub_state
                               WHEN i.status IS DISTINCT FROM u.status THEN NULL
                               ELSE i.sub_state END,
              -- The provider's fee (issue 32): kept when the entry settles and the answer says it.
              fee_charge = CASE WHEN u.status IN ('SUCCESS', 'REVERSED') AND u.fee_charge IS NOT NULL
                                THEN u.fee_charge ELSE i.fee_charge END,
              fee_tax = CASE WHEN u.status IN ('SUCCESS', 'REVERSED') AND u.fee_charge IS NOT NULL
                             THEN u.fee_tax ELSE i.fee_tax END
         FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[],
                     $8::numeric[], $9::numeric[])
              AS u(transfer_id, status, reference_id, utr, reason, sub_state, fee_charge, fee_tax)
        WHERE i.batch_id = $1 AND i.transfer_id = u.transfer_id
          AND (i.status IS DISTINCT FROM u.status OR (u.utr IS NOT NULL AND i.utr IS DISTINCT FROM u.utr)
               OR (u.sub_state IS NOT NULL AND i.sub_state IS DISTINCT FROM u.sub_state
                   AND u.status NOT IN ('SUCCESS', 'FAILED', 'REJECTED', 'REVERSED')))
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
        updates.map((u) => u.subState ?? null),
        updates.map((u) => u.fee?.charge ?? null),
        updates.map((u) => u.fee?.tax ?? null),
      ],
    );
    return rows.map(toItem);
  }
}
