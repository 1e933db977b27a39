import type pg from 'pg';
import { type SealedSecret } from './secrets-cipher.js';

/** One query with side effects, as recorded by its request id (migration 1764670000000). */
export interface QueryAnswerClaim {
  readonly accountId: string;
  readonly requestId: string;
  readonly type: string;
  /** Keyed hash of the request (SecretsCipher.hash): never the request itself. */
  readonly requestHash: string;
}

/** What an earlier delivery of the same request id left. `answer` null: none recorded (under way, or cut short). */
export interface RecordedQuery {
  readonly type: string;
  readonly requestHash: string;
  readonly answer: SealedSecret | null;
}

/**
 * The record of queries with side effects (beneficiary create and delete, SDK tokens): claimed by
 * request id before the provider is called, answered after. Not the ledger of payouts.
 */
export class QueryAnswerRepository {
  /** Claims the request id: undefined when this call claimed it, else what an earlier one recorded. */
  async claim(db: pg.Pool | pg.PoolClient, c: QueryAnswerClaim): Promise<RecordedQuery | undefined> {
    const inserted = await db.query(
      /* sql: queryAnswer.claim */ `INSERT INTO query_answer (account_id, request_id, type, request_hash)
       VALUES ($1, $2, $3, $4)
       ON CONFLICT (account_id, request_id) DO NOTHING
       RETURNING 1`,
      [c.accountId, c.requestId, c.type, c.requestHash],
    );
    if (inserted.rowCount === 1) return undefined;
    const { rows } = await db.query<{ type: string; request_hash: string; answer: SealedSecret | null }>(
      /* sql: queryAnswer.claim.recorded */ `SELECT type, request_hash, answer FROM query_answer
        WHERE account_id = $1 AND request_id = $2`,
      [c.accountId, c.requestId],
    );
    const r = rows[0];
    // Purged between the two statements: as good as claimed by an earlier one, outcome unknown.
    if (!r) return { type: c.type, requestHash: c.requestHash, answer: null };
    return { type: r.type, requestHash: r.request_hash, answer: r.answer };
  }

  /** The answer of a claimed request id, sealed. */
  async answer(
    db: pg.Pool | pg.PoolClient,
    accountId: string,
    requestId: string,
    answer: SealedSecret,
  ): Promise<void> {
    await db.query(
      /* sql: queryAnswer.answer */ `UPDATE query_answer SET answer = $3::jsonb, answered_at = now()
        WHERE account_id = $1 AND request_id = $2`,
      [accountId, requestId, JSON.stringify(answer)],
    );
  }

  /** Gives a claim back when nothing was done (asking again is what its answer says to do). */
  async release(db: pg.Pool | pg.PoolClient, accountId: string, requestId: string): Promise<void> {
    await db.query(
      /* sql: queryAnswer.release */ `DELETE FROM query_answer
        WHERE account_id = $1 AND request_id = $2 AND answer IS NULL`,
      [accountId, requestId],
    );
  }

  /** Deletes up to `limit` records made before `before`; how many went. */
  async purge(db: pg.Pool | pg.PoolClient, before: Date, limit: number): Promise<number> {
    const r = await db.query(
      /* sql: queryAnswer.purge */ `DELETE FROM query_answer WHERE ctid IN (
         SELECT ctid FROM query_answer WHERE created_at < $1 LIMIT $2)`,
      [before, limit],
    );
    return r.rowCount ?? 0;
  }
}
