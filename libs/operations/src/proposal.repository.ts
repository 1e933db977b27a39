import type pg from 'pg';

type Db = pg.Pool | pg.PoolClient;

export type ProposalState = 'open' | 'approved' | 'rejected' | 'stale';
export type ProposedOutcome = 'SUCCESS' | 'FAILED';

export interface NewProposal {
  readonly payoutId: string;
  readonly accountId: string;
  readonly transferId: string;
  readonly fromVersion: number;
  readonly outcome: ProposedOutcome;
  readonly utr: string | null;
  readonly note: string;
  /** The proposer's human id (Operator.id), their display name, and how they came in (viaLabel). */
  readonly proposedBy: string;
  readonly proposedByName: string;
  readonly proposedVia: string;
}

export interface ProposalRow extends NewProposal {
  readonly id: string;
  readonly proposedAt: Date;
  readonly state: ProposalState;
  readonly decidedBy: string | null;
  readonly decidedByName: string | null;
  readonly decidedVia: string | null;
  readonly decidedAt: Date | null;
  readonly decisionNote: string | null;
}

interface Raw {
  id: string;
  payout_id: string;
  account_id: string;
  transfer_id: string;
  from_version: number;
  outcome: ProposedOutcome;
  utr: string | null;
  note: string;
  proposed_by: string;
  proposed_by_name: string | null;
  proposed_via: string | null;
  proposed_at: Date;
  state: ProposalState;
  decided_by: string | null;
  decided_by_name: string | null;
  decided_via: string | null;
  decided_at: Date | null;
  decision_note: string | null;
}

const COLUMNS = `id, payout_id, account_id, transfer_id, from_version, outcome, utr, note, proposed_by,
  proposed_by_name, proposed_via, proposed_at, state, decided_by, decided_by_name, decided_via, decided_at, decision_note`;

const toRow = (r: Raw): ProposalRow => ({
  id: String(r.id),
  payoutId: String(r.payout_id),
  accountId: r.account_id,
  transferId: r.transfer_id,
  fromVersion: r.from_version,
  outcome: r.outcome,
  utr: r.utr,
  note: r.note,
  proposedBy: r.proposed_by,
  // Rows from before names were kept (issue 30) name the proposer by the id they had then.
  proposedByName: r.proposed_by_name ?? r.proposed_by,
  proposedVia: r.proposed_via ?? 'unknown',
  proposedAt: r.proposed_at,
  state: r.state,
  decidedBy: r.decided_by,
  decidedByName: r.decided_by_name ?? r.decided_by,
  decidedVia: r.decided_via ?? (r.decided_by === null ? null : 'unknown'),
  decidedAt: r.decided_at,
  decisionNote: r.decision_note,
});

/** Every statement on `payout_proposal` (four-eyes settlement). */
export class ProposalRepository {
  /** undefined: the payout already has an open proposal (the partial unique index). */
  async insert(db: Db, p: NewProposal): Promise<ProposalRow | undefined> {
    const { rows } = await db.query<Raw>(
      /* sql: proposal.insert */ `INSERT INTO payout_proposal (payout_id, account_id, transfer_id, from_version, outcome, utr, note, proposed_by,
                                    proposed_by_name, proposed_via)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
       ON CONFLICT (payout_id) WHERE state = 'open' DO NOTHING
       RETURNING ${COLUMNS}`,
      [
        p.payoutId,
        p.accountId,
        p.transferId,
        p.fromVersion,
        p.outcome,
        p.utr,
        p.note,
        p.proposedBy,
        p.proposedByName,
        p.proposedVia,
      ],
    );
    return rows[0] ? toRow(rows[0]) : undefined;
  }

  /** The proposal, locked for the caller's transaction (a decision). */
  async lock(db: Db, id: string): Promise<ProposalRow | undefined> {
    const { rows } = await db.query<Raw>(
      /* sql: proposal.lock */ `SELECT ${COLUMNS} FROM payout_proposal WHERE id = $1 FOR UPDATE`,
      [id],
    );
    return rows[0] ? toRow(rows[0]) : undefined;
  }

  async decide(
    db: Db,
    id: string,
    state: Exclude<ProposalState, 'open'>,
    decidedBy: { readonly id: string; readonly name: string; readonly via: string },
    note: string | null,
  ): Promise<ProposalRow | undefined> {
    const { rows } = await db.query<Raw>(
      /* sql: proposal.decide */ `UPDATE payout_proposal SET state = $2, decided_by = $3, decided_by_name = $4, decided_via = $5,
                                  decided_at = now(), decision_note = $6
        WHERE id = $1 AND state = 'open'
        RETURNING ${COLUMNS}`,
      [id, state, decidedBy.id, decidedBy.name, decidedBy.via, note],
    );
    return rows[0] ? toRow(rows[0]) : undefined;
  }

  /**
   * An open proposal made on an earlier version of its payout can no longer be approved: it is
   * closed as stale (no decider), so a new one may be made on the current version.
   */
  async closeStale(db: Db, payoutId: string, currentVersion: number): Promise<number> {
    const { rowCount } = await db.query(
      /* sql: proposal.closeStale */ `UPDATE payout_proposal SET state = 'stale', decided_at = now()
        WHERE payout_id = $1 AND state = 'open' AND from_version <> $2`,
      [payoutId, currentVersion],
    );
    return rowCount ?? 0;
  }

  async ofPayout(db: Db, payoutId: string): Promise<ProposalRow[]> {
    const { rows } = await db.query<Raw>(
      /* sql: proposal.ofPayout */ `SELECT ${COLUMNS} FROM payout_proposal WHERE payout_id = $1 ORDER BY id`,
      [payoutId],
    );
    return rows.map(toRow);
  }

  /** Proposals in a state (all: null), newest first, before the cursor id. */
  async list(
    db: Db,
    state: ProposalState | null,
    beforeId: string | null,
    limit: number,
  ): Promise<ProposalRow[]> {
    const { rows } = await db.query<Raw>(
      /* sql: proposal.list */ `SELECT ${COLUMNS} FROM payout_proposal
        WHERE ($1::text IS NULL OR state = $1::text) AND ($2::bigint IS NULL OR id < $2::bigint)
        ORDER BY id DESC LIMIT $3`,
      [state, beforeId, limit],
    );
    return rows.map(toRow);
  }
}
