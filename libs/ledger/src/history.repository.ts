import type pg from 'pg';
import { type ChangeSource } from './ledger.ports.js';

type Db = pg.Pool | pg.PoolClient;

/** Why a state changed, as the history says it. */
export type HistoryCause = 'intake' | 'executor' | 'reconciler' | 'webhook' | 'operator';

/**
 * The ledger's change sources as history causes. `batches` is the batch check worker (a
 * reconciliation); the batch submitter's moves say `executor` explicitly (BatchLedger).
 */
export const CAUSE_OF_SOURCE: Readonly<Record<ChangeSource, HistoryCause>> = {
  intake: 'intake',
  executor: 'executor',
  reconciler: 'reconciler',
  batches: 'reconciler',
  webhook: 'webhook',
  operations: 'operator',
};

export type HistorySubject = 'payout' | 'batch' | 'batch_entry';

/** Who asked, when a person did: required with cause `operator`. */
export interface OperatorActor {
  readonly operatorId: string;
  /** A four-eyes settlement: the approver (operatorId is the proposer). */
  readonly approverId?: string;
  readonly proposalId?: string;
}

/**
 * One state change. Ids, statuses, codes and provider references only: nothing of a request
 * (no account number, no VPA, no name, no secret) can be written here, there is no field for it.
 */
export interface HistoryEntry {
  readonly subject: HistorySubject;
  /** payout.id; batch.id for a batch and for its entries. */
  readonly subjectId: string;
  readonly accountId: string;
  readonly transferId: string;
  /** null: the row was created. */
  readonly from: string | null;
  readonly to: string;
  readonly version: number;
  readonly cause: HistoryCause;
  readonly reason?: string | null;
  readonly statusCode?: string | null;
  readonly referenceId?: string | null;
  readonly utr?: string | null;
  readonly actor?: OperatorActor;
}

export interface HistoryRow {
  id: string;
  subject: HistorySubject;
  subjectId: string;
  accountId: string;
  transferId: string;
  from: string | null;
  to: string;
  version: number;
  cause: HistoryCause;
  reason: string | null;
  statusCode: string | null;
  referenceId: string | null;
  utr: string | null;
  operatorId: string | null;
  approverId: string | null;
  proposalId: string | null;
  at: Date;
}

interface RawHistory {
  id: string;
  subject: HistorySubject;
  subject_id: string;
  account_id: string;
  transfer_id: string;
  from_status: string | null;
  to_status: string;
  version: number;
  cause: HistoryCause;
  reason: string | null;
  status_code: string | null;
  reference_id: string | null;
  utr: string | null;
  operator_id: string | null;
  approver_id: string | null;
  proposal_id: string | null;
  at: Date;
}

/** How much older than its subject's creation a change may be stamped (see ofSubject). */
const HISTORY_SLACK_MS = 24 * 3600 * 1000;

const COLUMNS = `id, subject, subject_id, account_id, transfer_id, from_status, to_status, version, cause, reason,
  status_code, reference_id, utr, operator_id, approver_id, proposal_id, at`;

function toRow(r: RawHistory): HistoryRow {
  return {
    id: String(r.id),
    subject: r.subject,
    subjectId: String(r.subject_id),
    accountId: r.account_id,
    transferId: r.transfer_id,
    from: r.from_status,
    to: r.to_status,
    version: r.version,
    cause: r.cause,
    reason: r.reason,
    statusCode: r.status_code,
    referenceId: r.reference_id,
    utr: r.utr,
    operatorId: r.operator_id,
    approverId: r.approver_id,
    proposalId: r.proposal_id === null ? null : String(r.proposal_id),
    at: r.at,
  };
}

/**
 * Every statement on `state_history`. Written only by the ledger step (PayoutLedger,
 * BatchLedger), in the transaction of the change: one statement per transaction, however many
 * changes it holds (arrays, as the outbox insert).
 */
export class HistoryRepository {
  async record(db: Db, rows: readonly HistoryEntry[]): Promise<void> {
    if (rows.length === 0) return;
    await db.query(
      /* sql: history.record */ `INSERT INTO state_history (subject, subject_id, account_id, transfer_id, from_status, to_status, version,
                                  cause, reason, status_code, reference_id, utr, operator_id, approver_id, proposal_id)
       SELECT * FROM unnest($1::text[], $2::bigint[], $3::text[], $4::text[], $5::text[], $6::text[], $7::int[],
                            $8::text[], $9::text[], $10::text[], $11::text[], $12::text[], $13::text[], $14::text[],
                            $15::bigint[])`,
      [
        rows.map((r) => r.subject),
        rows.map((r) => r.subjectId),
        rows.map((r) => r.accountId),
        rows.map((r) => r.transferId),
        rows.map((r) => r.from),
        rows.map((r) => r.to),
        rows.map((r) => r.version),
        rows.map((r) => r.cause),
        rows.map((r) => r.reason ?? null),
        rows.map((r) => r.statusCode ?? null),
        rows.map((r) => r.referenceId ?? null),
        rows.map((r) => r.utr ?? null),
        rows.map((r) => r.actor?.operatorId ?? null),
        rows.map((r) => r.actor?.approverId ?? null),
        rows.map((r) => r.actor?.proposalId ?? null),
      ],
    );
  }

  /**
   * The changes of one subject (a batch: its own and its entries'), oldest first. `createdAt` is
   * the subject's: none of its changes is older (less a day of slack: a transaction that began
   * before the row was committed may move it, stamped with its earlier start), so the months
   * before it are never read (partition pruning, ADR 0016, amendment of 2026-11-25): however long
   * the history is kept, a timeline probes the index of each month since its subject began.
   * (No upper bound: a contradiction adds a history row without a new version, at any time.)
   */
  async ofSubject(
    db: Db,
    subject: 'payout' | 'batch',
    subjectId: string,
    createdAt: Date,
  ): Promise<HistoryRow[]> {
    const { rows } = await db.query<RawHistory>(
      /* sql: history.ofSubject */ `SELECT ${COLUMNS} FROM state_history
        WHERE subject = ANY($1::text[]) AND subject_id = $2 AND at >= $3
        ORDER BY id`,
      [
        subject === 'batch' ? ['batch', 'batch_entry'] : ['payout'],
        subjectId,
        new Date(createdAt.getTime() - HISTORY_SLACK_MS),
      ],
    );
    return rows.map(toRow);
  }
}
