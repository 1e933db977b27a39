import type pg from 'pg';
import { type SealedSecret } from '#ledger';

type Db = pg.Pool | pg.PoolClient;

export type BeneficiaryChange = 'create' | 'delete';
/** approved: the provider was asked (its answer in `result`); failed: it refused or was unclear. */
export type BeneficiaryProposalState = 'open' | 'approved' | 'rejected' | 'failed';

/** A person as the proposal names them: human id, display name, way in (viaLabel). */
export interface ProposalActor {
  readonly id: string;
  readonly name: string;
  readonly via: string;
}

export interface NewBeneficiaryProposal {
  readonly accountId: string;
  readonly beneId: string;
  readonly change: BeneficiaryChange;
  /** create: the details as sent, sealed with the ledger's key; delete: null. */
  readonly details: SealedSecret | null;
  /** create: the details masked (what the approver is shown); delete: null. */
  readonly summary: Readonly<Record<string, string>> | null;
  readonly proposedBy: ProposalActor;
}

export interface BeneficiaryProposalRow {
  readonly id: string;
  readonly accountId: string;
  readonly beneId: string;
  readonly change: BeneficiaryChange;
  readonly details: SealedSecret | null;
  readonly summary: Readonly<Record<string, string>> | null;
  readonly proposedBy: ProposalActor;
  readonly proposedAt: Date;
  readonly state: BeneficiaryProposalState;
  readonly decidedBy: ProposalActor | null;
  readonly decidedAt: Date | null;
  readonly decisionNote: string | null;
  readonly result: string | null;
}

interface Raw {
  id: string;
  account_id: string;
  bene_id: string;
  change: BeneficiaryChange;
  details: SealedSecret | null;
  summary: Record<string, string> | null;
  proposed_by: string;
  proposed_by_name: string;
  proposed_via: string;
  proposed_at: Date;
  state: BeneficiaryProposalState;
  decided_by: string | null;
  decided_by_name: string | null;
  decided_via: string | null;
  decided_at: Date | null;
  decision_note: string | null;
  result: string | null;
}

const COLUMNS = `id::text AS id, account_id, bene_id, change, details, summary, proposed_by, proposed_by_name,
  proposed_via, proposed_at, state, decided_by, decided_by_name, decided_via, decided_at, decision_note, result`;

const toRow = (r: Raw): BeneficiaryProposalRow => ({
  id: r.id,
  accountId: r.account_id,
  beneId: r.bene_id,
  change: r.change,
  details: r.details,
  summary: r.summary,
  proposedBy: { id: r.proposed_by, name: r.proposed_by_name, via: r.proposed_via },
  proposedAt: r.proposed_at,
  state: r.state,
  decidedBy:
    r.decided_by === null
      ? null
      : { id: r.decided_by, name: r.decided_by_name ?? r.decided_by, via: r.decided_via ?? 'unknown' },
  decidedAt: r.decided_at,
  decisionNote: r.decision_note,
  result: r.result,
});

/** Every statement on `beneficiary_proposal` (a person's beneficiary change, waiting for a second person). */
export class BeneficiaryProposalRepository {
  /** undefined: the beneficiary already has an open proposal (the partial unique index). */
  async insert(db: Db, p: NewBeneficiaryProposal): Promise<BeneficiaryProposalRow | undefined> {
    const { rows } = await db.query<Raw>(
      /* sql: beneficiaryProposal.insert */ `INSERT INTO beneficiary_proposal (account_id, bene_id, change, details, summary,
                                         proposed_by, proposed_by_name, proposed_via)
       VALUES ($1, $2, $3, $4::jsonb, $5::jsonb, $6, $7, $8)
       ON CONFLICT (account_id, bene_id) WHERE state = 'open' DO NOTHING
       RETURNING ${COLUMNS}`,
      [
        p.accountId,
        p.beneId,
        p.change,
        p.details === null ? null : JSON.stringify(p.details),
        p.summary === null ? null : JSON.stringify(p.summary),
        p.proposedBy.id,
        p.proposedBy.name,
        p.proposedBy.via,
      ],
    );
    return rows[0] ? toRow(rows[0]) : undefined;
  }

  async byId(db: Db, id: string): Promise<BeneficiaryProposalRow | undefined> {
    const { rows } = await db.query<Raw>(
      /* sql: beneficiaryProposal.byId */ `SELECT ${COLUMNS} FROM beneficiary_proposal WHERE id = $1::bigint`,
      [id],
    );
    return rows[0] ? toRow(rows[0]) : undefined;
  }

  /** The proposal, locked for the caller's transaction (a decision). */
  async lock(db: Db, id: string): Promise<BeneficiaryProposalRow | undefined> {
    const { rows } = await db.query<Raw>(
      /* sql: beneficiaryProposal.lock */ `SELECT ${COLUMNS} FROM beneficiary_proposal WHERE id = $1::bigint FOR UPDATE`,
      [id],
    );
    return rows[0] ? toRow(rows[0]) : undefined;
  }

  /** Closes an open proposal: approved (the provider is asked next, `settle` records its answer) or rejected. */
  async decide(
    db: Db,
    id: string,
    state: 'approved' | 'rejected',
    by: ProposalActor,
    note: string | null,
  ): Promise<BeneficiaryProposalRow | undefined> {
    const { rows } = await db.query<Raw>(
      /* sql: beneficiaryProposal.decide */ `UPDATE beneficiary_proposal
          SET state = $2, decided_by = $3, decided_by_name = $4, decided_via = $5, decided_at = now(), decision_note = $6,
              details = CASE WHEN $2 = 'rejected' THEN NULL ELSE details END
        WHERE id = $1::bigint AND state = 'open'
        RETURNING ${COLUMNS}`,
      [id, state, by.id, by.name, by.via, note],
    );
    return rows[0] ? toRow(rows[0]) : undefined;
  }

  /** The provider's answer to an approved change: its result, or `failed` with the refusal's code. */
  async settle(
    db: Db,
    id: string,
    state: 'approved' | 'failed',
    result: string,
  ): Promise<BeneficiaryProposalRow | undefined> {
    const { rows } = await db.query<Raw>(
      /* sql: beneficiaryProposal.settle */ `UPDATE beneficiary_proposal SET state = $2, result = $3, details = NULL
        WHERE id = $1::bigint AND state = 'approved' AND result IS NULL
        RETURNING ${COLUMNS}`,
      [id, state, result],
    );
    return rows[0] ? toRow(rows[0]) : undefined;
  }

  /** Proposals in a state (all: null), newest first, before the cursor id. */
  async list(
    db: Db,
    state: BeneficiaryProposalState | null,
    beforeId: string | null,
    limit: number,
  ): Promise<BeneficiaryProposalRow[]> {
    const { rows } = await db.query<Raw>(
      /* sql: beneficiaryProposal.list */ `SELECT ${COLUMNS} FROM beneficiary_proposal
        WHERE ($1::text IS NULL OR state = $1::text) AND ($2::bigint IS NULL OR id < $2::bigint)
        ORDER BY id DESC LIMIT $3`,
      [state, beforeId, limit],
    );
    return rows.map(toRow);
  }
}
