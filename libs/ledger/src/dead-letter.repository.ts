import type pg from 'pg';

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
}
