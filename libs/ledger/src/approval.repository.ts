import type pg from 'pg';

type Db = pg.Pool | pg.PoolClient;

/** What an approval hold is about: a single payout or a whole batch (issue 30). */
export type HoldSubject = 'payout' | 'batch';
export type HoldState = 'waiting' | 'approved' | 'rejected' | 'expired';

/** A rule that caught the payout and what it saw (amounts as exact decimal text, ids; no personal data). */
export interface CaughtRule {
  readonly rule: string;
  readonly detail: string;
}

export interface NewHold {
  readonly subject: HoldSubject;
  readonly subjectId: string;
  readonly accountId: string;
  /** The payout's transferId or the batch's batchTransferId. */
  readonly transferId: string;
  readonly amount: string;
  readonly rules: readonly CaughtRule[];
  readonly policyVersion: string;
  readonly approvalsNeeded: number;
  readonly approverRole: 'operator' | 'approver';
  /** People who may not approve it (whoever changed the beneficiary's instrument). */
  readonly excluded: readonly string[];
  readonly expiresInMs: number;
}

export interface HoldRow {
  id: string;
  subject: HoldSubject;
  subjectId: string;
  accountId: string;
  transferId: string;
  amount: string;
  rules: CaughtRule[];
  policyVersion: string;
  approvalsNeeded: number;
  approverRole: 'operator' | 'approver';
  excluded: string[];
  state: HoldState;
  reason: string | null;
  createdAt: Date;
  expiresAt: Date;
  decidedAt: Date | null;
  /** The approvals recorded so far (distinct approvers). */
  approvals: number;
  /** Who approved so far, in order (operator ids). */
  approvedBy: string[];
}

export interface HoldDecision {
  readonly holdId: string;
  /** The identity that makes approvers distinct (one approval each). */
  readonly approver: string;
  readonly operatorId: string;
  readonly role: string;
  readonly decision: 'approve' | 'reject';
  readonly note: string | null;
}

export interface DecisionRow {
  approver: string;
  operatorId: string;
  role: string;
  decision: 'approve' | 'reject';
  note: string | null;
  at: Date;
}

interface RawHold {
  id: string;
  subject: HoldSubject;
  subject_id: string;
  account_id: string;
  transfer_id: string;
  amount: string;
  rules: CaughtRule[];
  policy_version: string;
  approvals_needed: number;
  approver_role: 'operator' | 'approver';
  excluded: string[];
  state: HoldState;
  reason: string | null;
  created_at: Date;
  expires_at: Date;
  decided_at: Date | null;
  approvals: number;
  approved_by: string[] | null;
}

const HOLD = `h.id, h.subject, h.subject_id, h.account_id, h.transfer_id, h.amount::text AS amount, h.rules,
  h.policy_version, h.approvals_needed, h.approver_role, h.excluded, h.state, h.reason, h.created_at,
  h.expires_at, h.decided_at,
  (SELECT count(*)::int FROM approval_decision d WHERE d.hold_id = h.id AND d.decision = 'approve') AS approvals,
  (SELECT array_agg(d.operator_id ORDER BY d.at) FROM approval_decision d
    WHERE d.hold_id = h.id AND d.decision = 'approve') AS approved_by`;

function toHold(r: RawHold): HoldRow {
  return {
    id: r.id,
    subject: r.subject,
    subjectId: r.subject_id,
    accountId: r.account_id,
    transferId: r.transfer_id,
    amount: r.amount,
    rules: r.rules,
    policyVersion: r.policy_version,
    approvalsNeeded: r.approvals_needed,
    approverRole: r.approver_role,
    excluded: r.excluded,
    state: r.state,
    reason: r.reason,
    createdAt: r.created_at,
    expiresAt: r.expires_at,
    decidedAt: r.decided_at,
    approvals: r.approvals,
    approvedBy: r.approved_by ?? [],
  };
}

/**
 * The approval holds (issue 30, ADR 0024): written by intake in its transaction, decided by people
 * through the operations API, expired by the approval worker. The payout's or batch's state moves
 * only through the ledger's steps; these rows say why it waits and who decided.
 */
export class ApprovalRepository {
  async insert(db: Db, holds: readonly NewHold[]): Promise<void> {
    if (holds.length === 0) return;
    await db.query(
      /* sql: approval.insert */ `INSERT INTO approval_hold (subject, subject_id, account_id, transfer_id, amount, rules, policy_version,
                                  approvals_needed, approver_role, excluded, expires_at)
       SELECT h.subject, h.subject_id, h.account_id, h.transfer_id, h.amount, h.rules, h.policy_version,
              h.approvals_needed, h.approver_role,
              ARRAY(SELECT jsonb_array_elements_text(h.excluded)),
              now() + make_interval(secs => h.expires_ms / 1000)
         FROM jsonb_to_recordset($1::jsonb) AS h(subject text, subject_id bigint, account_id text, transfer_id text,
              amount numeric, rules jsonb, policy_version text, approvals_needed int, approver_role text,
              excluded jsonb, expires_ms double precision)`,
      [
        JSON.stringify(
          holds.map((h) => ({
            subject: h.subject,
            subject_id: h.subjectId,
            account_id: h.accountId,
            transfer_id: h.transferId,
            amount: h.amount,
            rules: h.rules,
            policy_version: h.policyVersion,
            approvals_needed: h.approvalsNeeded,
            approver_role: h.approverRole,
            excluded: h.excluded,
            expires_ms: h.expiresInMs,
          })),
        ),
      ],
    );
  }

  /** The hold of a payout or batch, locked for a decision in the caller's transaction. */
  async lock(
    db: Db,
    subject: HoldSubject,
    accountId: string,
    transferId: string,
  ): Promise<HoldRow | undefined> {
    const { rows } = await db.query<RawHold>(
      /* sql: approval.lock */ `SELECT ${HOLD} FROM approval_hold h
        WHERE h.account_id = $1 AND h.transfer_id = $2 AND h.subject = $3
        ORDER BY h.id DESC LIMIT 1 FOR UPDATE OF h`,
      [accountId, transferId, subject],
    );
    return rows[0] ? toHold(rows[0]) : undefined;
  }

  /** The hold of a payout or batch (the latest), unlocked. */
  async find(
    db: Db,
    subject: HoldSubject,
    accountId: string,
    transferId: string,
  ): Promise<HoldRow | undefined> {
    const { rows } = await db.query<RawHold>(
      /* sql: approval.find */ `SELECT ${HOLD} FROM approval_hold h
        WHERE h.account_id = $1 AND h.transfer_id = $2 AND h.subject = $3
        ORDER BY h.id DESC LIMIT 1`,
      [accountId, transferId, subject],
    );
    return rows[0] ? toHold(rows[0]) : undefined;
  }

  /** One person's decision; false when this person has decided this hold already. */
  async decide(db: Db, d: HoldDecision): Promise<boolean> {
    const { rowCount } = await db.query(
      /* sql: approval.decide */ `INSERT INTO approval_decision (hold_id, approver, operator_id, role, decision, note)
       VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (hold_id, approver) DO NOTHING`,
      [d.holdId, d.approver, d.operatorId, d.role, d.decision, d.note],
    );
    return rowCount === 1;
  }

  async decisions(db: Db, holdId: string): Promise<DecisionRow[]> {
    const { rows } = await db.query<{
      approver: string;
      operator_id: string;
      role: string;
      decision: 'approve' | 'reject';
      note: string | null;
      at: Date;
    }>(
      /* sql: approval.decisions */ `SELECT approver, operator_id, role, decision, note, at
         FROM approval_decision WHERE hold_id = $1 ORDER BY at, approver`,
      [holdId],
    );
    return rows.map((r) => ({
      approver: r.approver,
      operatorId: r.operator_id,
      role: r.role,
      decision: r.decision,
      note: r.note,
      at: r.at,
    }));
  }

  /** Ends a waiting hold; false when it had ended already. */
  async close(
    db: Db,
    holdId: string,
    state: Exclude<HoldState, 'waiting'>,
    reason: string,
  ): Promise<boolean> {
    const { rowCount } = await db.query(
      /* sql: approval.close */ `UPDATE approval_hold SET state = $2, reason = $3, decided_at = now()
        WHERE id = $1 AND state = 'waiting'`,
      [holdId, state, reason],
    );
    return rowCount === 1;
  }

  /** Waiting holds, oldest first, from after `afterId` (a page), optionally of one account. */
  async waiting(db: Db, q: { accountId?: string; afterId?: string; limit: number }): Promise<HoldRow[]> {
    const { rows } = await db.query<RawHold>(
      /* sql: approval.waiting */ `SELECT ${HOLD} FROM approval_hold h
        WHERE h.state = 'waiting' AND ($1::text IS NULL OR h.account_id = $1)
          AND ($2::bigint IS NULL OR h.id > $2)
        ORDER BY h.id LIMIT $3`,
      [q.accountId ?? null, q.afterId ?? null, q.limit],
    );
    return rows.map(toHold);
  }

  /** Waiting holds past their expiry that no other worker holds, locked in the caller's transaction. */
  async claimExpired(db: Db, limit: number): Promise<HoldRow[]> {
    const { rows } = await db.query<RawHold>(
      /* sql: approval.claimExpired */ `SELECT ${HOLD} FROM approval_hold h
        WHERE h.state = 'waiting' AND h.expires_at <= now()
        ORDER BY h.expires_at, h.id LIMIT $1 FOR UPDATE OF h SKIP LOCKED`,
      [limit],
    );
    return rows.map(toHold);
  }

  /** When the next waiting hold expires (null: none waits). */
  async nextExpiry(db: Db): Promise<Date | null> {
    const { rows } = await db.query<{ at: Date | null }>(
      /* sql: approval.nextExpiry */ `SELECT min(expires_at) AS at FROM approval_hold WHERE state = 'waiting'`,
    );
    return rows[0]?.at ?? null;
  }

  /**
   * Of `beneIds`, those with an earlier payout on the account that a person or the policy let
   * through and that did not fail: any status but AWAITING_APPROVAL, REJECTED, FAILED or REVERSED,
   * created before this transaction (so not one admitted with it). Served by payout_bene_history_idx.
   */
  async paidBefore(db: Db, accountId: string, beneIds: readonly string[]): Promise<Set<string>> {
    if (beneIds.length === 0) return new Set();
    const { rows } = await db.query<{ bene_id: string }>(
      /* sql: approval.paidBefore */ `SELECT b.bene_id FROM unnest($2::text[]) AS b(bene_id)
        WHERE EXISTS (SELECT 1 FROM payout p
                       WHERE p.account_id = $1 AND p.request->>'beneId' = b.bene_id AND p.created_at < now()
                         AND p.status NOT IN ('AWAITING_APPROVAL', 'REJECTED', 'FAILED', 'REVERSED'))`,
      [accountId, [...new Set(beneIds)]],
    );
    return new Set(rows.map((r) => r.bene_id));
  }

  /** Creates and removes of these beneficiaries within the last `withinMs`: who (null: not a person), how long ago. */
  async recentChanges(
    db: Db,
    accountId: string,
    beneIds: readonly string[],
    withinMs: number,
  ): Promise<Array<{ beneId: string; operatorId: string | null; ageMs: number }>> {
    if (beneIds.length === 0) return [];
    const { rows } = await db.query<{ bene_id: string; operator_id: string | null; age_ms: number }>(
      /* sql: approval.recentChanges */ `SELECT bene_id, operator_id, (EXTRACT(EPOCH FROM now() - at) * 1000)::float8 AS age_ms
         FROM beneficiary_change
        WHERE account_id = $1 AND bene_id = ANY($2::text[])
          AND at > now() - make_interval(secs => $3::double precision / 1000)`,
      [accountId, [...new Set(beneIds)], withinMs],
    );
    return rows.map((r) => ({ beneId: r.bene_id, operatorId: r.operator_id, ageMs: Math.max(0, r.age_ms) }));
  }

  /**
   * Adds to today's sums (India's day, as the withdrawal quota) per key ('' the account, else a
   * beneId) and returns each key's new total, in the caller's transaction (the row lock orders two
   * intakes of one account). Amounts are exact decimals.
   */
  async addDaily(db: Db, accountId: string, add: ReadonlyMap<string, string>): Promise<Map<string, string>> {
    if (add.size === 0) return new Map();
    const keys = [...add.keys()].sort();
    const { rows } = await db.query<{ bene_id: string; amount: string }>(
      /* sql: approval.addDaily */ `INSERT INTO approval_daily_sum AS s (account_id, day, bene_id, amount)
       SELECT $1, (now() AT TIME ZONE 'Asia/Kolkata')::date, k.bene_id, k.amount
         FROM unnest($2::text[], $3::numeric[]) AS k(bene_id, amount)
       ON CONFLICT (account_id, day, bene_id) DO UPDATE SET amount = s.amount + EXCLUDED.amount
       RETURNING bene_id, amount::text AS amount`,
      [accountId, keys, keys.map((k) => add.get(k))],
    );
    return new Map(rows.map((r) => [r.bene_id, r.amount]));
  }

  /** Records a beneficiary create or remove (before the provider is asked: an attempt counts too). */
  async recordBeneficiaryChange(
    db: Db,
    c: {
      accountId: string;
      beneId: string;
      change: 'created' | 'removed';
      source: 'ops' | 'queries';
      operatorId: string | null;
    },
  ): Promise<void> {
    await db.query(
      /* sql: approval.recordBeneficiaryChange */ `INSERT INTO beneficiary_change (account_id, bene_id, change, source, operator_id)
       VALUES ($1, $2, $3, $4, $5)`,
      [c.accountId, c.beneId, c.change, c.source, c.operatorId],
    );
  }
}
