import type pg from 'pg';
import { type PayoutStatus } from '#contracts';
import { type ContradictionKind } from './state-machine.js';

type Db = pg.Pool | pg.PoolClient;

/** Who reported a contradiction: a status check (the watch) or a provider webhook. */
export type ContradictionSource = 'reconciler' | 'webhook';

export interface NewContradiction {
  readonly payoutId: string;
  /** The payout's version and status as published: the insert applies only while they are current. */
  readonly version: number;
  readonly published: PayoutStatus;
  readonly observed: PayoutStatus;
  readonly kind: ContradictionKind;
  readonly source: ContradictionSource;
  /** The provider's raw status word, masked by the caller. */
  readonly observedCode: string | null;
  readonly eventId: string;
}

/** A contradiction of a batch entry's published terminal state (the entry's own version). */
export interface NewEntryContradiction {
  readonly batchId: string;
  readonly transferId: string;
  /** The entry's version and status as published: the insert applies only while they are current. */
  readonly version: number;
  readonly published: string;
  readonly observed: PayoutStatus;
  readonly kind: ContradictionKind;
  readonly source: ContradictionSource;
  readonly observedCode: string | null;
  readonly eventId: string;
}

export interface ContradictionRow {
  id: string;
  /** The payout contradicted; null for a batch entry (then `batchId`). */
  payoutId: string | null;
  /** The batch whose entry `transferId` is contradicted; null for a payout. */
  batchId: string | null;
  /** That batch's batchTransferId, so a person sees which batch the entry is in; null for a payout. */
  batchTransferId: string | null;
  accountId: string;
  transferId: string;
  version: number;
  kind: ContradictionKind;
  published: PayoutStatus;
  observed: PayoutStatus;
  source: ContradictionSource;
  observedCode: string | null;
  eventId: string;
  seenAt: Date;
  /** The first person's acknowledgement (issue 30: two people clear a contradiction). */
  ackProposedBy: string | null;
  ackProposedByName: string | null;
  ackProposedVia: string | null;
  ackProposedAt: Date | null;
  ackProposalNote: string | null;
  /** The second person's confirmation: it has left the queue. */
  acknowledgedBy: string | null;
  acknowledgedByName: string | null;
  acknowledgedVia: string | null;
  acknowledgedAt: Date | null;
  note: string | null;
}

/** A person as the operations API names them: human id, display name, way in. */
export interface ContradictionActor {
  readonly id: string;
  readonly name: string;
  readonly via: string;
}

// The entry's batch by its own id: a contradiction names it (one indexed lookup, only for entries).
const COLUMNS = `id, payout_id, batch_id, account_id, transfer_id, version, kind, published, observed, source,
  observed_code, event_id, seen_at, ack_proposed_by, ack_proposed_by_name, ack_proposed_via, ack_proposed_at,
  ack_proposal_note, acknowledged_by, acknowledged_by_name, acknowledged_via, acknowledged_at, note,
  (SELECT b.batch_transfer_id FROM batch b WHERE b.id = payout_contradiction.batch_id) AS batch_transfer_id`;

interface RawContradiction {
  id: string;
  payout_id: string | null;
  batch_id: string | null;
  batch_transfer_id: string | null;
  account_id: string;
  transfer_id: string;
  version: number;
  kind: ContradictionKind;
  published: PayoutStatus;
  observed: PayoutStatus;
  source: ContradictionSource;
  observed_code: string | null;
  event_id: string;
  seen_at: Date;
  ack_proposed_by: string | null;
  ack_proposed_by_name: string | null;
  ack_proposed_via: string | null;
  ack_proposed_at: Date | null;
  ack_proposal_note: string | null;
  acknowledged_by: string | null;
  acknowledged_by_name: string | null;
  acknowledged_via: string | null;
  acknowledged_at: Date | null;
  note: string | null;
}

function toRow(r: RawContradiction): ContradictionRow {
  return {
    id: String(r.id),
    payoutId: r.payout_id === null ? null : String(r.payout_id),
    batchId: r.batch_id === null ? null : String(r.batch_id),
    batchTransferId: r.batch_transfer_id,
    accountId: r.account_id,
    transferId: r.transfer_id,
    version: r.version,
    kind: r.kind,
    published: r.published,
    observed: r.observed,
    source: r.source,
    observedCode: r.observed_code,
    eventId: r.event_id,
    seenAt: r.seen_at,
    ackProposedBy: r.ack_proposed_by,
    ackProposedByName: r.ack_proposed_by_name,
    ackProposedVia: r.ack_proposed_via,
    ackProposedAt: r.ack_proposed_at,
    ackProposalNote: r.ack_proposal_note,
    acknowledgedBy: r.acknowledged_by,
    acknowledgedByName: r.acknowledged_by_name ?? r.acknowledged_by,
    acknowledgedVia: r.acknowledged_via,
    acknowledgedAt: r.acknowledged_at,
    note: r.note,
  };
}

/**
 * Every SQL statement on `payout_contradiction` (ADR 0018). Written only by the ledger steps
 * (PayoutLedger.contradict, BatchLedger.contradictEntries), acknowledged only by the operations API.
 */
export class ContradictionRepository {
  /**
   * insert: records a contradiction of the payout's current version, unless the same observation
   * of that version is recorded already (a repeat) or the payout has moved on (a stale report).
   * Returns the new row, or undefined for both.
   */
  async insert(db: Db, c: NewContradiction): Promise<ContradictionRow | undefined> {
    const { rows } = await db.query<RawContradiction>(
      /* sql: contradiction.insert */ `INSERT INTO payout_contradiction (payout_id, account_id, transfer_id, version, kind, published, observed,
                                         source, observed_code, event_id)
       SELECT p.id, p.account_id, p.transfer_id, p.version, $4, p.status, $5, $6, $7, $8
         FROM payout p WHERE p.id = $1 AND p.version = $2 AND p.status = $3
       ON CONFLICT DO NOTHING
       RETURNING ${COLUMNS}`,
      [c.payoutId, c.version, c.published, c.kind, c.observed, c.source, c.observedCode, c.eventId],
    );
    return rows[0] ? toRow(rows[0]) : undefined;
  }

  /**
   * insertEntry: records a contradiction of a batch entry's current version, as `insert` does for
   * a payout: nothing for a repeat of the observation or an entry that has moved on.
   */
  async insertEntry(db: Db, c: NewEntryContradiction): Promise<ContradictionRow | undefined> {
    const { rows } = await db.query<RawContradiction>(
      /* sql: contradiction.insertEntry */ `INSERT INTO payout_contradiction (batch_id, account_id, transfer_id, version, kind, published, observed,
                                         source, observed_code, event_id)
       SELECT b.id, b.account_id, i.transfer_id, i.version, $5, i.status, $6, $7, $8, $9
         FROM batch_item i JOIN batch b ON b.id = i.batch_id
        WHERE i.batch_id = $1 AND i.transfer_id = $2 AND i.version = $3 AND i.status = $4
       ON CONFLICT DO NOTHING
       RETURNING ${COLUMNS}`,
      [
        c.batchId,
        c.transferId,
        c.version,
        c.published,
        c.kind,
        c.observed,
        c.source,
        c.observedCode,
        c.eventId,
      ],
    );
    return rows[0] ? toRow(rows[0]) : undefined;
  }

  /** open: contradictions no person has acknowledged yet, oldest first (the operators' queue). */
  async open(db: Db, limit: number): Promise<ContradictionRow[]> {
    const { rows } = await db.query<RawContradiction>(
      /* sql: contradiction.open */ `SELECT ${COLUMNS} FROM payout_contradiction WHERE acknowledged_at IS NULL
        ORDER BY seen_at, id LIMIT $1`,
      [limit],
    );
    return rows.map(toRow);
  }

  /** ofPayout: every contradiction of one payout, oldest first (its page and timeline). */
  async ofPayout(db: Db, payoutId: string): Promise<ContradictionRow[]> {
    const { rows } = await db.query<RawContradiction>(
      /* sql: contradiction.ofPayout */ `SELECT ${COLUMNS} FROM payout_contradiction WHERE payout_id = $1 ORDER BY seen_at, id`,
      [payoutId],
    );
    return rows.map(toRow);
  }

  /** byId: one contradiction, whatever its state. */
  async byId(db: Db, id: string): Promise<ContradictionRow | undefined> {
    const { rows } = await db.query<RawContradiction>(
      /* sql: contradiction.byId */ `SELECT ${COLUMNS} FROM payout_contradiction WHERE id = $1`,
      [id],
    );
    return rows[0] ? toRow(rows[0]) : undefined;
  }

  /**
   * proposeAcknowledgement: a first person has seen it (and settles the money outside this
   * service); it stays in the queue until a second person confirms. Only an open one no one has
   * acknowledged yet: undefined otherwise.
   */
  async proposeAcknowledgement(
    db: Db,
    id: string,
    by: ContradictionActor,
    note: string | null,
  ): Promise<ContradictionRow | undefined> {
    const { rows } = await db.query<RawContradiction>(
      /* sql: contradiction.proposeAcknowledgement */ `UPDATE payout_contradiction
          SET ack_proposed_by = $2, ack_proposed_by_name = $3, ack_proposed_via = $4, ack_proposed_at = now(),
              ack_proposal_note = $5
        WHERE id = $1 AND acknowledged_at IS NULL AND ack_proposed_by IS NULL
        RETURNING ${COLUMNS}`,
      [id, by.id, by.name, by.via, note],
    );
    return rows[0] ? toRow(rows[0]) : undefined;
  }

  /**
   * confirmAcknowledgement: a second person, another human than the first, confirms: it leaves the
   * queue. Undefined when it is not waiting for a confirmation, or `by` is the first person (the
   * table's check holds that too).
   */
  async confirmAcknowledgement(
    db: Db,
    id: string,
    by: ContradictionActor,
    note: string | null,
  ): Promise<ContradictionRow | undefined> {
    const { rows } = await db.query<RawContradiction>(
      /* sql: contradiction.confirmAcknowledgement */ `UPDATE payout_contradiction
          SET acknowledged_by = $2, acknowledged_by_name = $3, acknowledged_via = $4, acknowledged_at = now(), note = $5
        WHERE id = $1 AND acknowledged_at IS NULL AND ack_proposed_by IS NOT NULL AND ack_proposed_by <> $2
        RETURNING ${COLUMNS}`,
      [id, by.id, by.name, by.via, note],
    );
    return rows[0] ? toRow(rows[0]) : undefined;
  }
}
