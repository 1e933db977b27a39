import type pg from 'pg';

/** Anything that runs a query: a caller's transaction client, or the pool for a one-off statement. */
export type Queryable = pg.Pool | pg.PoolClient | pg.Client;

/** One event to publish, written by the code that changed the state, in its own transaction. */
export interface OutboxInsert {
  /** Kafka key: every row of one key is published in insertion order (e.g. `payout/<accountId>/<transferId>`). */
  readonly messageKey: string;
  /** Stable id consumers dedupe on (e.g. `payout/<accountId>/<transferId>:<version>`). */
  readonly eventId: string;
  readonly eventType: string;
  /** LOGICAL topic (e.g. 'payouts.events'); the relay adds the deployment's prefix. */
  readonly topic: string;
  /** The full event envelope, published as JSON. */
  readonly payload: Readonly<Record<string, unknown>>;
  readonly headers?: Readonly<Record<string, string>>;
}

/** A claimed head row, as the relay sends it. `id` is a string: BIGINT can exceed 2^53. */
export interface OutboxRow {
  readonly id: string;
  readonly messageKey: string;
  readonly eventId: string;
  readonly eventType: string;
  readonly topic: string;
  /** The event as the JSON text it was written with: sent as it is. */
  readonly payload: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly attempts: number;
}

export interface OutboxFailure {
  readonly id: string;
  /** A broker or client error message; never a payload. */
  readonly error: string;
}

export interface EnqueueResult {
  /** Ids of the rows written; an event id already pending is skipped, so this may be shorter. */
  readonly inserted: readonly string[];
}

export interface OutboxStats {
  readonly pending: number;
  readonly dead: number;
  readonly oldestPendingAgeSeconds: number;
}

export type ReplayResult = 'replayed' | 'not-found';

/** A dead row as operators see it: where it was going and why it stopped, never its payload. */
export interface DeadOutboxRow {
  readonly id: string;
  readonly messageKey: string;
  readonly eventId: string;
  readonly eventType: string;
  readonly topic: string;
  readonly attempts: number;
  readonly lastError: string | null;
  readonly createdAt: Date;
}
