import { type Db } from './payout-row.js';

/**
 * Who holds a transfer id of an account (issue 29): the provider knows one transfer per id, so a
 * single payout and a batch entry share one namespace. `batchId` null: a single payout; otherwise
 * the entry of that batch. Written only by the ledger's intake steps (PayoutMoves.insertNew,
 * BatchMoves.insertNew), in the admission's own statement or transaction; never updated.
 */
export interface TransferHolder {
  readonly accountId: string;
  readonly transferId: string;
  readonly batchId: string | null;
  readonly batchTransferId: string | null;
  /** When the holder was admitted: the time of a refusal event, the same on every redelivery. */
  readonly createdAt: Date;
}

interface RawHolder {
  account_id: string;
  transfer_id: string;
  batch_id: string | null;
  batch_transfer_id: string | null;
  created_at: Date;
}

/** Reads of `transfer_identity` (migration 1764630000000). */
export class TransferIdentityRepository {
  /** The holders of these ids; an id nobody holds is absent from the answer. */
  async holdersOf(
    db: Db,
    ids: ReadonlyArray<{ accountId: string; transferId: string }>,
  ): Promise<TransferHolder[]> {
    if (ids.length === 0) return [];
    const { rows } = await db.query<RawHolder>(
      /* sql: transferIdentity.holdersOf */ `SELECT t.account_id, t.transfer_id, t.batch_id, b.batch_transfer_id, t.created_at
         FROM transfer_identity t LEFT JOIN batch b ON b.id = t.batch_id
        WHERE (t.account_id, t.transfer_id) IN (SELECT * FROM unnest($1::text[], $2::text[]))`,
      [ids.map((i) => i.accountId), ids.map((i) => i.transferId)],
    );
    return rows.map((r) => ({
      accountId: r.account_id,
      transferId: r.transfer_id,
      batchId: r.batch_id === null ? null : String(r.batch_id),
      batchTransferId: r.batch_transfer_id,
      createdAt: r.created_at,
    }));
  }

  async holderOf(db: Db, accountId: string, transferId: string): Promise<TransferHolder | undefined> {
    const [h] = await this.holdersOf(db, [{ accountId, transferId }]);
    return h;
  }
}
