/**
 * What is stuck for a person to look at, as the operations API shows it: commands refused to the
 * dead-letter topic (their mirror rows) and outbox rows the relay gave up on (the use cases
 * list-dead-letters and list-dead-outbox-rows).
 */

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

/** The largest page of a dead-letter list. */
export const MAX_PAGE_LIMIT = 200;
