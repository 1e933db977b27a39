import { type EventData } from '#contracts';
import { maskDigitRuns } from '#observability';
import { type ContradictionRow } from './contradiction.repository.js';
import {
  batchItemEventId,
  batchKey,
  entryFields,
  envelope,
  message,
  type OutboxMessage,
  payoutKey,
  stateEventId,
  strip,
} from './event-envelope.js';
import { type BatchItemRow, type BatchRow, type PayoutRow } from './ledger.types.js';

/* The events of a contradiction (ADR 0018): a later provider signal about a published terminal state. */

/** Id of the contradiction of a payout's version by one observed status: one observation, one event. */
export function contradictionEventId(
  accountId: string,
  transferId: string,
  version: number,
  observed: string,
): string {
  return `${stateEventId(payoutKey(accountId, transferId), version)}:contradicted:${observed.toLowerCase()}`;
}

/**
 * A later provider signal says the published terminal state of `row` (its current version) was
 * wrong (ADR 0018). Keyed like the payout's own events, so it follows the state it contradicts;
 * its id names the version and the observed status, so a repeat of the observation is the same
 * event (and the ledger writes it once). The published state itself is not rewritten: the event
 * carries it as `status`, with what the provider now says in `contradiction`. Ids and statuses
 * only; the provider's own word is masked.
 */
export function contradictedEvent(row: PayoutRow, c: ContradictionRow): OutboxMessage {
  const at = c.seenAt;
  const data = strip<EventData>({
    accountId: row.accountId,
    id: row.transferId,
    kind: row.kind,
    status: row.status,
    version: row.version,
    amount: row.amount,
    reason: row.reason ?? undefined,
    referenceId: row.referenceId ?? undefined,
    utr: row.utr ?? undefined,
    providerApi: row.providerApi,
    contradiction: strip({
      kind: c.kind,
      published: c.published,
      observed: c.observed,
      source: c.source,
      observedCode: c.observedCode === null ? undefined : maskDigitRuns(c.observedCode),
    }),
    requestId: row.requestId ?? undefined,
    occurredAt: at.toISOString(),
  });
  const key = payoutKey(row.accountId, row.transferId);
  return message(
    key,
    envelope(c.eventId, row.transferId, 'payouts.payout.contradicted', data, at),
    row.traceparent,
  );
}

/**
 * A later provider answer says the published terminal state of a batch entry was wrong (ADR 0018,
 * issue 29): `payouts.payout.contradicted`, as for a payout, keyed by the batch's key (after the
 * entry's own events), its subject the entry's transferId, `kind` batch_entry. Its id names the
 * entry's version and the observed status: a repeat of the observation is the same event.
 */
export function entryContradictedEvent(
  batch: BatchRow,
  item: BatchItemRow,
  c: ContradictionRow,
): OutboxMessage {
  const at = c.seenAt;
  const data = strip<EventData>({
    ...entryFields(batch, item),
    // The fee is said by the entry's own state events (issue 32), as a payout's contradiction says none.
    fee: undefined,
    contradiction: strip({
      kind: c.kind,
      published: c.published,
      observed: c.observed,
      source: c.source,
      observedCode: c.observedCode === null ? undefined : maskDigitRuns(c.observedCode),
    }),
    requestId: batch.requestId ?? undefined,
    occurredAt: at.toISOString(),
  });
  return message(
    batchKey(batch.accountId, batch.batchTransferId),
    envelope(c.eventId, item.transferId, 'payouts.payout.contradicted', data, at),
    batch.traceparent,
  );
}

/** Id of the contradiction of an entry's version by one observed status. */
export function entryContradictionEventId(
  batch: Pick<BatchRow, 'accountId' | 'batchTransferId'>,
  transferId: string,
  version: number,
  observed: string,
): string {
  return `${batchItemEventId(batch.accountId, batch.batchTransferId, transferId, version)}:contradicted:${observed.toLowerCase()}`;
}
