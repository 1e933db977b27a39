import { qualify } from './sql.js';
import { type PayoutRow } from './ledger.types.js';
import { COLUMNS, type Db, type RawPayout, toRow } from './payout-row.js';

/**
 * The reads and the scheduling of `payout` (next_check_at, leases): none of these changes a
 * payout's state. The state changes are the ledger's (PayoutLedger, through its internal
 * PayoutMoves): the only place that writes `status` or `version`.
 */
export class PayoutRepository {
  /**
   * findByIdentities: the current rows of many (account, transferId) pairs in one query, locked
   * FOR SHARE until the caller's transaction ends. Intake re-emits these states: without the lock
   * a transition could commit its newer event in between, and the older state would be published
   * after it.
   */
  async findByIdentities(
    db: Db,
    ids: ReadonlyArray<{ accountId: string; transferId: string }>,
  ): Promise<PayoutRow[]> {
    if (ids.length === 0) return [];
    const { rows } = await db.query<RawPayout>(
      /* sql: payout.findByIdentities */ `SELECT ${COLUMNS} FROM payout
        WHERE (account_id, transfer_id) IN (SELECT * FROM unnest($1::text[], $2::text[]))
        ORDER BY id
          FOR SHARE`,
      [ids.map((i) => i.accountId), ids.map((i) => i.transferId)],
    );
    return rows.map(toRow);
  }

  async findOne(db: Db, accountId: string, transferId: string): Promise<PayoutRow | undefined> {
    const { rows } = await db.query<RawPayout>(
      /* sql: payout.findOne */ `SELECT ${COLUMNS} FROM payout WHERE account_id = $1 AND transfer_id = $2`,
      [accountId, transferId],
    );
    return rows[0] ? toRow(rows[0]) : undefined;
  }

  /**
   * claimDueChecks: rows the reconciler should look at now (unclear, SUBMITTING past its lease,
   * SUCCESS under reversal watch, or FAILED, REJECTED or REVERSED under the failed watch, which
   * the ledger sets on entering any negative state of a kind with a status endpoint, ADR 0018;
   * a contradicting webhook may also ask for a check, watchNow). The claim pushes next_check_at out by the lease, so no
   * other instance takes the row meanwhile; it is not a state change (no version bump, no event).
   */
  async claimDueChecks(db: Db, owner: string, leaseMs: number, limit: number): Promise<PayoutRow[]> {
    const { rows } = await db.query<RawPayout>(
      /* sql: payout.claimDueChecks */ `UPDATE payout p
          SET next_check_at = now() + make_interval(secs => $2::double precision / 1000),
              check_count = p.check_count + 1, lease_owner = $1,
              lease_until = now() + make_interval(secs => $2::double precision / 1000)
        WHERE p.id IN (SELECT id FROM payout
                        WHERE status IN ('SUBMITTING', 'PENDING', 'UNKNOWN', 'SUCCESS', 'FAILED', 'REJECTED',
                                         'REVERSED')
                          AND next_check_at <= now()
                        ORDER BY next_check_at LIMIT $3 FOR UPDATE SKIP LOCKED)
        RETURNING ${qualify(COLUMNS, 'p')}`,
      [owner, leaseMs, limit],
    );
    return rows.map(toRow);
  }

  /**
   * claimAttentionChecks: REQUIRES_ATTENTION rows under the attention watch (issue 29: a person's
   * payout whose kind has a status endpoint is still asked, slowly) that are due, claimed like
   * claimDueChecks (a lease; no state change). Its own statement and index
   * (payout_attention_watch_idx), so the main claim is untouched.
   */
  async claimAttentionChecks(db: Db, owner: string, leaseMs: number, limit: number): Promise<PayoutRow[]> {
    const { rows } = await db.query<RawPayout>(
      /* sql: payout.claimAttentionChecks */ `UPDATE payout p
          SET next_check_at = now() + make_interval(secs => $2::double precision / 1000),
              check_count = p.check_count + 1, lease_owner = $1,
              lease_until = now() + make_interval(secs => $2::double precision / 1000)
        WHERE p.id IN (SELECT id FROM payout
                        WHERE status = 'REQUIRES_ATTENTION' AND next_check_at <= now()
                        ORDER BY next_check_at LIMIT $3 FOR UPDATE SKIP LOCKED)
        RETURNING ${qualify(COLUMNS, 'p')}`,
      [owner, leaseMs, limit],
    );
    return rows.map(toRow);
  }

  /**
   * renewLeases: the heartbeat of in-flight work. Extends the lease (and pushes next_check_at, which
   * the reconciler claims by) of every row this owner still holds at the version it saw, in one
   * statement. Returns the ids renewed: a missing id is a lease this worker lost.
   */
  async renewLeases(
    db: Db,
    owner: string,
    leaseMs: number,
    held: ReadonlyArray<{ id: string; version: number }>,
  ): Promise<string[]> {
    if (held.length === 0) return [];
    const { rows } = await db.query<{ id: string }>(
      /* sql: payout.renewLeases */ `UPDATE payout p
          SET lease_until = now() + make_interval(secs => $2::double precision / 1000),
              next_check_at = now() + make_interval(secs => $2::double precision / 1000)
         FROM unnest($3::bigint[], $4::int[]) AS h(id, version)
        WHERE p.id = h.id AND p.version = h.version AND p.lease_owner = $1
        RETURNING p.id`,
      [owner, leaseMs, held.map((h) => h.id), held.map((h) => h.version)],
    );
    return rows.map((r) => String(r.id));
  }

  /**
   * reschedule: same state, look again later (null: stop looking, the end of a reversal watch).
   * Not a state change: no version bump, no event.
   */
  async reschedule(
    db: Db,
    id: string,
    version: number,
    nextCheckAt: Date | null,
    lastError: Record<string, unknown> | null,
  ): Promise<boolean> {
    const { rowCount } = await db.query(
      /* sql: payout.reschedule */ `UPDATE payout SET next_check_at = $3, last_error = COALESCE($4::jsonb, last_error),
              lease_owner = NULL, lease_until = NULL, updated_at = now()
        WHERE id = $1 AND version = $2`,
      [id, version, nextCheckAt, lastError ? JSON.stringify(lastError) : null],
    );
    return rowCount === 1;
  }

  /**
   * checkNow: an operator (or a webhook) asks for a check now. Only rows the reconciler would
   * look at anyway (PENDING, UNKNOWN, SUBMITTING; SUCCESS, which the reversal watch checks: a
   * webhook announcing a reversal has it look now, and a watch already ended looks once more) and
   * only when no worker holds them: pulling a row whose call or check is in flight forward would
   * let a second instance act on it at the same time. The operations API refuses terminal rows
   * before it gets here. Not a state change: no version bump, no event.
   */
  async checkNow(db: Db, id: string): Promise<PayoutRow | undefined> {
    const { rows } = await db.query<RawPayout>(
      /* sql: payout.checkNow */ `UPDATE payout SET next_check_at = now()
        WHERE id = $1 AND status IN ('PENDING', 'UNKNOWN', 'SUBMITTING', 'SUCCESS')
          AND (lease_until IS NULL OR lease_until < now())
        RETURNING ${COLUMNS}`,
      [id],
    );
    return rows[0] ? toRow(rows[0]) : undefined;
  }

  /**
   * watchNow: a provider signal contradicts a published terminal state (ADR 0018): the payout is
   * checked now, as a watch check (SUCCESS, FAILED, REJECTED or REVERSED; the reconciler records what the
   * status endpoint confirms). Only when no worker holds it. Not a state change.
   */
  async watchNow(db: Db, id: string): Promise<PayoutRow | undefined> {
    const { rows } = await db.query<RawPayout>(
      /* sql: payout.watchNow */ `UPDATE payout SET next_check_at = now()
        WHERE id = $1 AND status IN ('SUCCESS', 'FAILED', 'REJECTED', 'REVERSED')
          AND (lease_until IS NULL OR lease_until < now())
        RETURNING ${COLUMNS}`,
      [id],
    );
    return rows[0] ? toRow(rows[0]) : undefined;
  }

  /** requiringAttention: the rows a person must look at, oldest first. */
  async requiringAttention(db: Db, limit: number): Promise<PayoutRow[]> {
    const { rows } = await db.query<RawPayout>(
      /* sql: payout.requiringAttention */ `SELECT ${COLUMNS} FROM payout WHERE status = 'REQUIRES_ATTENTION' ORDER BY updated_at, id LIMIT $1`,
      [limit],
    );
    return rows.map(toRow);
  }
}
