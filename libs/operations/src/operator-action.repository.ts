import type pg from 'pg';

type Db = pg.Pool | pg.PoolClient;

export type OperatorActionName =
  | 'recheck'
  | 'replay'
  | 'propose'
  | 'approve'
  | 'reject'
  | 'acknowledge'
  | 'ack_confirm'
  | 'bene_create'
  | 'bene_delete'
  | 'bene_approve'
  | 'bene_reject'
  | 'token_issue'
  | 'token_revoke'
  | 'cancel_held';

export interface OperatorActionEntry {
  /** The human answerable (Operator.id). */
  readonly operatorId: string;
  /** Their display name when they acted. */
  readonly operatorName: string;
  /** How they came in: `configured`, `session` or `token:<name>` (viaLabel). */
  readonly via: string;
  readonly role: string;
  readonly action: OperatorActionName;
  readonly payoutId?: string | null;
  readonly accountId?: string | null;
  readonly transferId?: string | null;
  readonly eventId?: string | null;
  readonly proposalId?: string | null;
  /** The beneficiary a bene_create / bene_delete was about (an id, never its details). */
  readonly beneId?: string | null;
  /** A beneficiary change's proposal (bene_create, bene_delete, bene_approve, bene_reject). */
  readonly beneProposalId?: string | null;
  /** What came of it: `scheduled`, `reopened`, `replayed`, `approved`, a refusal's code, … */
  readonly result: string;
}

export interface OperatorActionRow {
  id: string;
  operatorId: string;
  operatorName: string | null;
  via: string | null;
  role: string;
  action: OperatorActionName;
  eventId: string | null;
  proposalId: string | null;
  result: string;
  at: Date;
}

interface Raw {
  id: string;
  operator_id: string;
  operator_name: string | null;
  via: string | null;
  role: string;
  action: OperatorActionName;
  event_id: string | null;
  proposal_id: string | null;
  result: string;
  at: Date;
}

/** Every statement on `operator_action`: who did what, kept with the history. */
export class OperatorActionRepository {
  async record(db: Db, a: OperatorActionEntry): Promise<void> {
    await db.query(
      /* sql: operatorAction.record */ `INSERT INTO operator_action (operator_id, role, action, payout_id, account_id, transfer_id, event_id,
                                    proposal_id, bene_id, result, operator_name, via, bene_proposal_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
      [
        a.operatorId,
        a.role,
        a.action,
        a.payoutId ?? null,
        a.accountId ?? null,
        a.transferId ?? null,
        a.eventId ?? null,
        a.proposalId ?? null,
        a.beneId ?? null,
        a.result,
        a.operatorName,
        a.via,
        a.beneProposalId ?? null,
      ],
    );
  }

  async ofPayout(db: Db, payoutId: string): Promise<OperatorActionRow[]> {
    const { rows } = await db.query<Raw>(
      /* sql: operatorAction.ofPayout */ `SELECT id, operator_id, operator_name, via, role, action, event_id, proposal_id, result, at
         FROM operator_action WHERE payout_id = $1 ORDER BY id`,
      [payoutId],
    );
    return rows.map((r) => ({
      id: String(r.id),
      operatorId: r.operator_id,
      operatorName: r.operator_name,
      via: r.via,
      role: r.role,
      action: r.action,
      eventId: r.event_id,
      proposalId: r.proposal_id === null ? null : String(r.proposal_id),
      result: r.result,
      at: r.at,
    }));
  }
}
