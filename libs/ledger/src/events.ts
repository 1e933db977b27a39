import { TOPICS, type EventData, type PayoutEvent } from '#contracts';
import { maskAccountNumber, maskVpa } from '#observability';
import { BATCH_EVENT_NAME, PAYOUT_EVENT_NAME } from './state-machine.js';
import { type BatchItemRow, type BatchRow, type PayoutRow } from './ledger.types.js';

/** One row for the outbox: the event and where it goes. Kafka key = the payout's identity. */
export interface OutboxMessage {
  messageKey: string;
  eventId: string;
  eventType: string;
  topic: string;
  payload: PayoutEvent;
  headers: Record<string, string>;
}

export const EVENT_SOURCE = 'urn:payouts:payout-service';

/** The beneficiary of a request or batch entry, masked: the only part of a request shown outside. */
export function beneficiaryOf(request: Record<string, unknown>): EventData['beneficiary'] {
  const bene = (request['beneDetails'] ?? request) as Record<string, unknown>;
  const out: NonNullable<EventData['beneficiary']> = {};
  if (typeof request['beneId'] === 'string') out.beneId = request['beneId'];
  if (typeof bene['bankAccount'] === 'string') out.bankAccount = maskAccountNumber(bene['bankAccount']);
  if (typeof bene['ifsc'] === 'string') out.ifsc = bene['ifsc'];
  if (typeof bene['vpa'] === 'string') out.vpa = maskVpa(bene['vpa']);
  return Object.keys(out).length ? out : undefined;
}

function envelope(subject: string, version: number, type: string, data: EventData, at: Date): PayoutEvent {
  return {
    specversion: '1.0',
    id: `${subject}:${version}`,
    type,
    source: EVENT_SOURCE,
    time: at.toISOString(),
    subject,
    datacontenttype: 'application/json',
    data,
  };
}

function strip<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null && v !== undefined)) as T;
}

function message(e: PayoutEvent): OutboxMessage {
  return {
    messageKey: e.subject,
    eventId: e.id,
    eventType: e.type,
    topic: TOPICS.events,
    payload: e,
    headers: { ce_id: e.id, ce_type: e.type, 'content-type': 'application/cloudevents+json' },
  };
}

/** The event announcing a payout's current state. Personal data is masked; secrets are never in `request`. */
export function payoutStateEvent(row: PayoutRow, at: Date = row.updatedAt): OutboxMessage {
  const data = strip<EventData>({
    accountId: row.accountId,
    id: row.transferId,
    kind: row.kind,
    status: row.status,
    version: row.version,
    amount: row.amount,
    statusCode: row.statusCode ?? undefined,
    reason: row.reason ?? undefined,
    referenceId: row.referenceId ?? undefined,
    svcTransferId: row.svcTransferId ?? undefined,
    utr: row.utr ?? undefined,
    beneficiary: beneficiaryOf(row.request),
    requestId: row.requestId ?? undefined,
    occurredAt: at.toISOString(),
  });
  return message(
    envelope(row.transferId, row.version, `payouts.payout.${PAYOUT_EVENT_NAME[row.status]}`, data, at),
  );
}

export function batchStateEvent(
  row: BatchRow,
  totals?: EventData['totals'],
  at: Date = new Date(),
): OutboxMessage {
  const data = strip<EventData>({
    accountId: row.accountId,
    id: row.batchTransferId,
    kind: 'batch_transfer',
    status: row.status,
    version: row.version,
    amount: row.totalAmount,
    statusCode: row.statusCode ?? undefined,
    reason: row.reason ?? undefined,
    referenceId: row.referenceId ?? undefined,
    totals: totals ?? { entries: row.entryCount },
    requestId: row.requestId ?? undefined,
    occurredAt: at.toISOString(),
  });
  return message(
    envelope(row.batchTransferId, row.version, `payouts.batch.${BATCH_EVENT_NAME[row.status]}`, data, at),
  );
}

/**
 * A repeat of an identity with a different request: the first request stands. The id is stable
 * per (identity, conflicting request), so a redelivered conflict is the same event.
 */
export function conflictEvent(
  accountId: string,
  identity: string,
  kind: string,
  conflictingHash: string,
  current: { status: string; version: number },
  at: Date = new Date(),
): OutboxMessage {
  const data: EventData = {
    accountId,
    id: identity,
    kind,
    status: current.status,
    version: current.version,
    reason: 'idempotency_conflict',
    occurredAt: at.toISOString(),
  };
  const e = envelope(identity, current.version, 'payouts.command.conflict', data, at);
  return message({ ...e, id: `${identity}:conflict:${conflictingHash.slice(0, 16)}` });
}

/**
 * An entry of a batch changed state. Keyed by the batch id, so entry events and the batch's own
 * events stay in one ordered stream; the subject is the entry's transferId.
 */
export function batchItemEvent(batch: BatchRow, item: BatchItemRow, at: Date = new Date()): OutboxMessage {
  const entry = item.entry;
  const data = strip<EventData>({
    accountId: batch.accountId,
    id: item.transferId,
    kind: 'batch_entry',
    status: item.status,
    version: item.version,
    amount: item.amount,
    reason: item.reason ?? undefined,
    referenceId: item.referenceId ?? undefined,
    utr: item.utr ?? undefined,
    batchTransferId: batch.batchTransferId,
    beneficiary: beneficiaryOf(entry),
    occurredAt: at.toISOString(),
  });
  const e = envelope(
    item.transferId,
    item.version,
    `payouts.batch_item.${item.status.toLowerCase()}`,
    data,
    at,
  );
  return {
    ...message({ ...e, id: `${batch.batchTransferId}/${item.transferId}:${item.version}` }),
    messageKey: batch.batchTransferId,
  };
}
