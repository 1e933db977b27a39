import type pg from 'pg';
import { type OutboxMessage } from '#ledger';

/** Writes events into the transactional outbox, inside the caller's transaction. */
export interface OutboxWriter {
  enqueue(db: pg.PoolClient, rows: readonly OutboxMessage[]): Promise<unknown>;
}

/** One message for the dead-letter topic. `value` is already scrubbed of secrets. */
export interface DeadLetterMessage {
  key: Buffer | null;
  value: Buffer | null;
  headers: Record<string, string>;
}

export interface DeadLetterPublisher {
  publish(messages: readonly DeadLetterMessage[]): Promise<void>;
}

/** DI tokens of the pipeline context. */
export const OUTBOX_WRITER = Symbol('OUTBOX_WRITER');
export const DEAD_LETTER_PUBLISHER = Symbol('DEAD_LETTER_PUBLISHER');
export const SECRETS_CIPHER = Symbol('SECRETS_CIPHER');
export const PIPELINE_METRICS = Symbol('PIPELINE_METRICS');
