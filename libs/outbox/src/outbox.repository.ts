import type pg from 'pg';
import {
  type EnqueueResult,
  type DeadOutboxRow,
  type OutboxFailure,
  type OutboxInsert,
  type OutboxRow,
  type OutboxStats,
  type Queryable,
  type ReplayResult,
} from './outbox.types.js';

export interface RetryPolicy {
  readonly maxAttempts: number;
  readonly retryBaseMs: number;
  readonly retryMaxMs: number;
}

/** An event the WAL relay hands to the table: `error` set when its send failed. */
export interface ParkedEvent {
  readonly messageKey: string;
  readonly eventId: string;
  readonly eventType: string;
  readonly topic: string;
  /** The JSON text as written. */
  readonly payload: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly error?: string;
}

interface RawRow {
  id: string;
  message_key: string;
  event_id: string;
  event_type: string;
  topic: string;
  payload: string;
  headers: Record<string, string> | null;
  attempts: number;
}

/**
 * Every statement on the `outbox` table lives here, one method per query, so a change to any of
 * them shows up in review. See docs/adr/0006-outbox-relay.md for why the claim looks the way it does.
 */
export class OutboxRepository {
  /**
   * Writes events inside the CALLER's transaction (pass its client). One statement. An event id
   * that is already pending is skipped (ON CONFLICT on the partial index).
   *
   * Contract: the caller holds the row lock of the entity whose key it writes (the payout or batch
   * row it just inserted, updated, or read FOR SHARE) until commit. Two writers of one key are then
   * serialised before either draws an id, so per key, id order is commit order and the relay, which
   * publishes only a key's head, never publishes a later event first. (A per-key advisory lock here
   * would take one lock-table slot per key: a few large Kafka batches at once could exhaust
   * Postgres's shared lock table. See docs/adr/0006-outbox-relay.md.)
   */
  async enqueue(q: Queryable, rows: readonly OutboxInsert[]): Promise<EnqueueResult> {
    if (rows.length === 0) return { inserted: [] };
    // Four text arrays and two JSON arrays. The payloads and headers go as one JSON array each:
    // an element of a text[] parameter is escaped by pg (every quote of a JSON text), which made
    // the payloads the service's largest allocation (about 25 KB a payout, issue 23); a JSON array
    // is one JSON.stringify. `json`, not `jsonb`: json_array_elements keeps each element's text as
    // written, so each payload is stored as the very text written here, which the relay sends.
    // (All six fields in one JSON array, read a field at a time, cost Postgres about 10 us more
    // per event.)
    const { rows: out } = await q.query<{ id: string }>({
      name: 'outbox.enqueue',
      text: /* sql: outbox.enqueue */ `
      INSERT INTO outbox (message_key, event_id, event_type, topic, payload, headers)
      SELECT message_key, event_id, event_type, topic, payload, headers::jsonb
        FROM ROWS FROM (unnest($1::text[]), unnest($2::text[]), unnest($3::text[]), unnest($4::text[]),
                        json_array_elements($5::json), json_array_elements($6::json))
             WITH ORDINALITY AS r(message_key, event_id, event_type, topic, payload, headers, ord)
       ORDER BY ord
      ON CONFLICT (event_id) WHERE state = 'pending' DO NOTHING
      RETURNING id`,
      values: [
        rows.map((r) => r.messageKey),
        rows.map((r) => r.eventId),
        rows.map((r) => r.eventType),
        rows.map((r) => r.topic),
        JSON.stringify(rows.map((r) => r.payload)),
        JSON.stringify(rows.map((r) => r.headers ?? {})),
      ],
    });
    return { inserted: out.map((r) => r.id) };
  }

  /**
   * Of these keys, those with a row in the table that is not published (pending or dead). The WAL
   * relay (ADR 0023) parks any later event of such a key behind it instead of sending it.
   */
  async keysWithUnpublished(q: Queryable, keys: readonly string[]): Promise<Set<string>> {
    if (keys.length === 0) return new Set();
    const { rows } = await q.query<{ message_key: string }>(
      /* sql: outbox.keysWithUnpublished */ `
      SELECT DISTINCT message_key FROM outbox
       WHERE message_key = ANY($1::text[]) AND state <> 'published'`,
      [keys],
    );
    return new Set(rows.map((r) => r.message_key));
  }

  /**
   * Writes events the WAL relay could not or may not send (ADR 0023), in the given order, so the
   * table relay serves them: a failed one with one attempt counted (dead at once if that is the
   * last), one waiting behind an unpublished row of its key as pending. An event id already pending
   * is skipped (a redelivery after a relay restart). Returns the ids written that are dead.
   */
  async park(q: Queryable, rows: readonly ParkedEvent[], policy: RetryPolicy): Promise<{ dead: string[] }> {
    if (rows.length === 0) return { dead: [] };
    const { rows: out } = await q.query<{ id: string; state: string }>(
      /* sql: outbox.park */ `
      INSERT INTO outbox (message_key, event_id, event_type, topic, payload, headers, state, attempts, last_error, available_at)
      SELECT message_key, event_id, event_type, topic, payload::json, headers::jsonb,
             CASE WHEN attempts >= $9 THEN 'dead' ELSE 'pending' END,
             attempts, left(error, 1000),
             now() + CASE WHEN attempts > 0 THEN least($11::float8, $10::float8) ELSE 0 END * interval '1 millisecond'
        FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::int[], $8::text[])
             WITH ORDINALITY AS r(message_key, event_id, event_type, topic, payload, headers, attempts, error, ord)
       ORDER BY ord
      ON CONFLICT (event_id) WHERE state = 'pending' DO NOTHING
      RETURNING id, state`,
      [
        rows.map((r) => r.messageKey),
        rows.map((r) => r.eventId),
        rows.map((r) => r.eventType),
        rows.map((r) => r.topic),
        rows.map((r) => r.payload),
        rows.map((r) => JSON.stringify(r.headers)),
        rows.map((r) => (r.error === undefined ? 0 : 1)),
        rows.map((r) => r.error ?? null),
        policy.maxAttempts,
        policy.retryBaseMs,
        policy.retryMaxMs,
      ],
    );
    return { dead: out.filter((r) => r.state === 'dead').map((r) => r.id) };
  }

  /**
   * Locks up to `limit` key heads (the lowest unpublished id of each key) that are due, oldest
   * first, skipping heads another relay holds. Call inside a transaction and keep it open until the
   * rows are marked: the row locks are what keep two relays off the same key. A key whose head is
   * dead or backing off yields nothing, so its later rows wait.
   *
   * Walks pending rows in id order (outbox_pending_id_idx) and keeps those with no unpublished row
   * of their key before them (outbox_unpublished_idx), stopping at `limit`: a round reads about as
   * many rows as it claims, also with millions pending after an outage. (Collecting every key's
   * head first would read the whole backlog each round.) A row becomes a head only when the rows
   * before it are published, never the other way round, and a key's rows commit in id order (see
   * enqueue), so a head seen in this statement's snapshot is a head.
   *
   * The limit is a subquery so the planner never sees its value and plans for the first rows of
   * that walk. With the value, on a table without statistics (a fresh database, an outbox that was
   * empty when autovacuum last analysed it) it estimated fewer pending rows than the limit, read
   * them all through a bitmap and sorted them: 54 ms a round against 2.2 ms (issue 23;
   * test/ledger/plans-without-statistics.int-spec.ts).
   */
  async claimHeads(client: pg.PoolClient, limit: number): Promise<OutboxRow[]> {
    const { rows } = await client.query<RawRow>({
      name: 'outbox.claimHeads',
      text: /* sql: outbox.claimHeads */ `
      SELECT o.id, o.message_key, o.event_id, o.event_type, o.topic, o.payload::text AS payload, o.headers, o.attempts
        FROM outbox o
       WHERE o.state = 'pending'
         AND o.available_at <= now()
         AND NOT EXISTS (SELECT 1 FROM outbox e
                          WHERE e.message_key = o.message_key AND e.id < o.id AND e.state <> 'published')
       ORDER BY o.id
       LIMIT (SELECT $1::int)
         FOR UPDATE OF o SKIP LOCKED`,
      values: [limit],
    });
    return rows.map((r) => ({
      id: r.id,
      messageKey: r.message_key,
      eventId: r.event_id,
      eventType: r.event_type,
      topic: r.topic,
      payload: r.payload,
      headers: r.headers ?? {},
      attempts: r.attempts,
    }));
  }

  /**
   * Marks sent rows published, kept for the retention window (OUTBOX_RETENTION_HOURS > 0). Returns
   * each row's created-to-published latency in seconds.
   */
  async markPublished(client: Queryable, ids: readonly string[]): Promise<number[]> {
    if (ids.length === 0) return [];
    const { rows } = await client.query<{ latency: number }>({
      name: 'outbox.markPublished',
      text: /* sql: outbox.markPublished */ `
      UPDATE outbox SET state = 'published', published_at = now()
       WHERE id = ANY($1::bigint[]) AND state = 'pending'
      RETURNING extract(epoch FROM published_at - created_at)::float8 AS latency`,
      values: [ids],
    });
    return rows.map((r) => r.latency);
  }

  /**
   * Deletes sent rows (no retention, the default): nothing reads a published row, and a delete
   * writes no new row version, no index entries and a few bytes of WAL, where marking it writes a
   * full copy of the row. Returns each row's created-to-published latency in seconds.
   */
  async deletePublished(client: Queryable, ids: readonly string[]): Promise<number[]> {
    if (ids.length === 0) return [];
    const { rows } = await client.query<{ latency: number }>({
      name: 'outbox.deletePublished',
      text: /* sql: outbox.deletePublished */ `
      DELETE FROM outbox
       WHERE id = ANY($1::bigint[]) AND state = 'pending'
      RETURNING extract(epoch FROM now() - created_at)::float8 AS latency`,
      values: [ids],
    });
    return rows.map((r) => r.latency);
  }

  /**
   * Counts a failed send: backs the row off exponentially, or makes it dead at the last attempt.
   * Returns the ids that became dead.
   */
  async markFailed(
    client: Queryable,
    failures: readonly OutboxFailure[],
    policy: RetryPolicy,
  ): Promise<string[]> {
    if (failures.length === 0) return [];
    const { rows } = await client.query<{ id: string; state: string }>(
      /* sql: outbox.markFailed */ `
      UPDATE outbox o
         SET attempts = o.attempts + 1,
             last_error = left(f.error, 1000),
             state = CASE WHEN o.attempts + 1 >= $3 THEN 'dead' ELSE 'pending' END,
             available_at = now() + least($5::float8, $4::float8 * power(2, least(o.attempts, 30)))
                                    * interval '1 millisecond'
        FROM unnest($1::bigint[], $2::text[]) AS f(id, error)
       WHERE o.id = f.id AND o.state = 'pending'
      RETURNING o.id, o.state`,
      [
        failures.map((f) => f.id),
        failures.map((f) => f.error),
        policy.maxAttempts,
        policy.retryBaseMs,
        policy.retryMaxMs,
      ],
    );
    return rows.filter((r) => r.state === 'dead').map((r) => r.id);
  }

  /**
   * Puts a dead row (by id, or the oldest dead row of an event id) back to pending with its
   * attempts reset. A dead row is its key's head, so this always unblocks the key. A pending copy
   * of the same event id (a duplicate command re-emitted the state while the row was dead) sits
   * behind it and could never publish first: it is deleted in the same statement, and the replayed
   * row publishes the event, at its original place in the key's order. Retried if a copy is
   * enqueued concurrently (the partial unique index then refuses the replay).
   */
  async replayDead(q: Queryable, idOrEventId: string): Promise<ReplayResult> {
    for (let attempt = 1; ; attempt++) {
      try {
        const { rowCount } = await q.query(
          /* sql: outbox.replayDead */ `
          WITH target AS (
            SELECT id, event_id FROM outbox
             WHERE state = 'dead'
               AND (id = CASE WHEN $1 ~ '^[0-9]{1,18}$' THEN $1::bigint END OR event_id = $1)
             ORDER BY id LIMIT 1
               FOR UPDATE),
          copies AS (
            DELETE FROM outbox p USING target t
             WHERE p.event_id = t.event_id AND p.state = 'pending' AND p.id > t.id
            RETURNING p.id)
          UPDATE outbox o
             SET state = 'pending', attempts = 0, last_error = NULL, available_at = now()
            FROM target t
           -- Reading the copies first makes the DELETE run before the row turns pending.
           WHERE o.id = t.id AND (SELECT count(*) FROM copies) >= 0`,
          [idOrEventId],
        );
        return rowCount ? 'replayed' : 'not-found';
      } catch (e) {
        if ((e as { code?: string }).code !== '23505' || attempt >= 3) throw e;
      }
    }
  }

  /**
   * Dead rows, newest first, `limit` of them with an id below `beforeId` (keyset pagination).
   * Reads only unpublished rows (the partial index); the payload is not read. The order names the
   * table's column: a bare `id` would be the text alias and sort 9 before 25.
   */
  async listDead(
    q: Queryable,
    page: { beforeId: string | undefined; limit: number },
  ): Promise<DeadOutboxRow[]> {
    const { rows } = await q.query<{
      id: string;
      message_key: string;
      event_id: string;
      event_type: string;
      topic: string;
      attempts: number;
      last_error: string | null;
      created_at: Date;
    }>(
      /* sql: outbox.listDead */ `
      SELECT id::text AS id, message_key, event_id, event_type, topic, attempts, last_error, created_at
        FROM outbox
       WHERE state = 'dead' AND ($1::bigint IS NULL OR outbox.id < $1::bigint)
       ORDER BY outbox.id DESC
       LIMIT $2`,
      [page.beforeId ?? null, page.limit],
    );
    return rows.map((r) => ({
      id: r.id,
      messageKey: r.message_key,
      eventId: r.event_id,
      eventType: r.event_type,
      topic: r.topic,
      attempts: r.attempts,
      lastError: r.last_error,
      createdAt: r.created_at,
    }));
  }

  /** Deletes at most `limit` published rows older than the retention; returns how many. */
  async purgePublished(q: Queryable, retentionHours: number, limit: number): Promise<number> {
    const { rowCount } = await q.query(
      /* sql: outbox.purgePublished */ `
      DELETE FROM outbox
       WHERE id IN (SELECT id FROM outbox
                     WHERE state = 'published' AND published_at < now() - $1 * interval '1 hour'
                     ORDER BY published_at
                     LIMIT $2)`,
      [retentionHours, limit],
    );
    return rowCount ?? 0;
  }

  /** Cheap enough to run on every scrape: it reads only unpublished rows (a partial index). */
  async stats(q: Queryable): Promise<OutboxStats> {
    const { rows } = await q.query<{
      pending: string;
      dead: string;
      oldest: number | null;
    }>(/* sql: outbox.stats */ `
      SELECT count(*) FILTER (WHERE state = 'pending') AS pending,
             count(*) FILTER (WHERE state = 'dead') AS dead,
             extract(epoch FROM now() - min(created_at) FILTER (WHERE state = 'pending'))::float8 AS oldest
        FROM outbox
       WHERE state <> 'published'`);
    const r = rows[0];
    return {
      pending: Number(r?.pending ?? 0),
      dead: Number(r?.dead ?? 0),
      oldestPendingAgeSeconds: Math.max(0, r?.oldest ?? 0),
    };
  }
}
