import type pg from 'pg';
import { type DeadLetterRepository } from '#ledger';
import { scrubText } from '#pipeline';
import { OperationsError, OperationsErrorCode } from './operations.errors.js';

/** A page of a list, newest first; `nextCursor` (opaque) gives the next page, null at the end. */
export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

/** A command that went to the dead-letter topic, as recorded beside it (ADR 0007: already scrubbed). */
export interface DeadLetterView {
  id: string;
  topic: string;
  partition: number;
  offset: string;
  reason: string;
  /** The command's type when it could be read, and the rule that refused it (field names, no values). */
  type: string | null;
  detail: unknown;
  createdAt: string;
}

/** A dead outbox row: an event the relay gave up publishing. Replayable by its id or event id. */
export interface DeadOutboxView {
  id: string;
  eventId: string;
  eventType: string;
  messageKey: string;
  topic: string;
  attempts: number;
  lastError: string | null;
  createdAt: string;
}

/** The outbox's dead rows, newest first (a port: the outbox library answers it). */
export type DeadOutboxRows = (page: { beforeId: string | undefined; limit: number }) => Promise<
  ReadonlyArray<{
    id: string;
    eventId: string;
    eventType: string;
    messageKey: string;
    topic: string;
    attempts: number;
    lastError: string | null;
    createdAt: Date;
  }>
>;

export interface DeadLetterListingDeps {
  pool: pg.Pool;
  deadLetters: DeadLetterRepository;
  deadOutboxRows: DeadOutboxRows;
}

export const MAX_PAGE_LIMIT = 200;
const MAX_ERROR_CHARS = 500;

/**
 * What is stuck for a person to look at: commands refused to the dead-letter topic (their mirror
 * rows) and outbox rows the relay gave up on. Both are listed newest first with keyset cursors
 * (the row id), so a page never shifts when new ones arrive. Nothing here is a secret: dead letters
 * keep names of fields and rules, never values (ADR 0007), and outbox errors are the broker's; the
 * error text is still scrubbed (digit runs, VPAs) and cut, as anything shown to a person.
 */
export class DeadLetterListing {
  constructor(private readonly d: DeadLetterListingDeps) {}

  async commands(cursor: string | undefined, limit: number): Promise<Page<DeadLetterView>> {
    const page = pageOf(cursor, limit);
    const rows = await this.d.deadLetters.list(this.d.pool, { beforeId: page.beforeId, limit: limit + 1 });
    return paginate(rows, limit, (r) => {
      const type = r.detail['type'];
      return {
        id: r.id,
        topic: r.topic,
        partition: r.partition,
        offset: r.offset,
        reason: r.reason,
        type: typeof type === 'string' ? type : null,
        detail: r.detail['detail'] ?? null,
        createdAt: r.createdAt.toISOString(),
      };
    });
  }

  async outboxRows(cursor: string | undefined, limit: number): Promise<Page<DeadOutboxView>> {
    const page = pageOf(cursor, limit);
    const rows = await this.d.deadOutboxRows({ beforeId: page.beforeId, limit: limit + 1 });
    return paginate(rows, limit, (r) => ({
      id: r.id,
      eventId: r.eventId,
      eventType: r.eventType,
      messageKey: r.messageKey,
      topic: r.topic,
      attempts: r.attempts,
      lastError: r.lastError === null ? null : scrubText(r.lastError).slice(0, MAX_ERROR_CHARS),
      createdAt: r.createdAt.toISOString(),
    }));
  }
}

function pageOf(cursor: string | undefined, limit: number): { beforeId: string | undefined } {
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_LIMIT)
    throw new OperationsError(
      OperationsErrorCode.InvalidInput,
      `limit must be an integer from 1 to ${MAX_PAGE_LIMIT}`,
    );
  if (cursor === undefined || cursor === '') return { beforeId: undefined };
  if (!/^[1-9][0-9]{0,17}$/.test(cursor))
    throw new OperationsError(OperationsErrorCode.InvalidInput, 'cursor is not one this API gave out');
  return { beforeId: cursor };
}

/** One row more than asked says whether there is a next page; its cursor is the last shown id. */
function paginate<R extends { id: string }, V>(
  rows: readonly R[],
  limit: number,
  view: (r: R) => V,
): Page<V> {
  const shown = rows.slice(0, limit);
  const last = shown.at(-1);
  return { items: shown.map(view), nextCursor: rows.length > limit && last ? last.id : null };
}
