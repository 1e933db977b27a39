import type pg from 'pg';

/** A recorded dead letter, as listed for operators. `id` is a string: BIGINT can exceed 2^53. */
export interface DeadLetterListed extends DeadLetterRecord {
  id: string;
  createdAt: Date;
}

export interface DeadLetterRecord {
  topic: string;
  partition: number;
  offset: string;
  reason: string;
  detail: Record<string, unknown>;
}

/** A mirror of what went to the DLQ topic, for counting and operations ("commands in = valid + dead"). */
export class DeadLetterRepository {
  /** record: many at once; a redelivered message is recorded once (its position is unique). */
  async record(db: pg.Pool | pg.PoolClient, rows: readonly DeadLetterRecord[]): Promise<void> {
    if (rows.length === 0) return;
    await db.query(
      /* sql: deadLetter.record */ `INSERT INTO dead_letter (topic, partition, "offset", reason, detail)
       SELECT * FROM unnest($1::text[], $2::int[], $3::text[], $4::text[], $5::jsonb[])
       ON CONFLICT (topic, partition, "offset") DO NOTHING`,
      [
        rows.map((r) => r.topic),
        rows.map((r) => r.partition),
        rows.map((r) => r.offset),
        rows.map((r) => r.reason),
        rows.map((r) => JSON.stringify(r.detail)),
      ],
    );
  }

  /**
   * Newest first, `limit` rows with an id below `beforeId` (keyset pagination on the primary key).
   * The order names the table's column: a bare `id` would be the text alias and sort 9 before 25.
   */
  async list(
    db: pg.Pool | pg.PoolClient,
    page: { beforeId: string | undefined; limit: number },
  ): Promise<DeadLetterListed[]> {
    const { rows } = await db.query<{
      id: string;
      topic: string;
      partition: number;
      offset: string;
      reason: string;
      detail: Record<string, unknown> | null;
      created_at: Date;
    }>(
      /* sql: deadLetter.list */ `SELECT id::text AS id, topic, partition, "offset", reason, detail, created_at
         FROM dead_letter
        WHERE $1::bigint IS NULL OR dead_letter.id < $1::bigint
        ORDER BY dead_letter.id DESC
        LIMIT $2`,
      [page.beforeId ?? null, page.limit],
    );
    return rows.map((r) => ({
      id: r.id,
      topic: r.topic,
      partition: r.partition,
      offset: r.offset,
      reason: r.reason,
      detail: r.detail ?? {},
      createdAt: r.created_at,
    }));
  }
}
