import { SERVICE_SOURCE, TOPICS, type EventData, type PayoutEvent } from '#contracts';
import { maskAccountNumber, maskVpa } from '#observability';
import { type BatchItemRow, type BatchRow } from './ledger.types.js';

/*
 * How every event of the ledger is made: its Kafka key, its id, the CloudEvents envelope and the
 * outbox row. The events themselves are in events.ts (states, refusals, notices) and
 * contradiction-events.ts; only events.ts is the ledger's public face (it re-exports the keys and
 * ids from here, not the builders).
 */

/** One row for the outbox: the event and where it goes. Kafka key = the entity's stream key. */
export interface OutboxMessage {
  messageKey: string;
  eventId: string;
  eventType: string;
  topic: string;
  payload: PayoutEvent;
  headers: Record<string, string>;
}

export const EVENT_SOURCE = SERVICE_SOURCE;

/*
 * A payout is identified by (account, transferId) and a batch by (account, batchTransferId); the
 * two are separate namespaces of identities. Transfer ids, though, are one namespace per account
 * across single payouts and batch entries, as at the provider (transfer_identity, issue 29): an id
 * held by either is refused to the other (transferIdInUseEvent). Keys and ids name all three parts. Account ids, transferIds and
 * batchTransferIds cannot contain '/' or ':' (see the command schemas), so the forms are unambiguous.
 */

/** Kafka key of a payout's events: `payout/<accountId>/<transferId>`. */
export function payoutKey(accountId: string, transferId: string): string {
  return `payout/${accountId}/${transferId}`;
}

/** Kafka key of a batch's events and its entries' events: `batch/<accountId>/<batchTransferId>`. */
export function batchKey(accountId: string, batchTransferId: string): string {
  return `batch/${accountId}/${batchTransferId}`;
}

/** Id of the event of a payout's or batch's version: `<key>:<version>`. */
export function stateEventId(key: string, version: number): string {
  return `${key}:${version}`;
}

/** Id of the event of a batch entry's version: `<batch key>/<transferId>:<version>`. */
export function batchItemEventId(
  accountId: string,
  batchTransferId: string,
  transferId: string,
  version: number,
): string {
  return `${batchKey(accountId, batchTransferId)}/${transferId}:${version}`;
}

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

export function envelope(id: string, subject: string, type: string, data: EventData, at: Date): PayoutEvent {
  return {
    specversion: '1.0',
    id,
    type,
    source: EVENT_SOURCE,
    time: at.toISOString(),
    subject,
    datacontenttype: 'application/json',
    data,
  };
}

/** The fields that have a value. A loop: entries/filter/fromEntries made three arrays per event. */
export function strip<T extends object>(o: T): T {
  const out: Record<string, unknown> = {};
  for (const k in o) {
    const v = o[k];
    if (v !== null && v !== undefined) out[k] = v;
  }
  return out as T;
}

/**
 * `traceparent`: the trace of the command that caused the event (stored with its payout or batch;
 * ADR 0015), so a consumer can follow an event back to its command. Absent when there is none.
 */
export function message(key: string, e: PayoutEvent, traceparent?: string | null): OutboxMessage {
  const headers: Record<string, string> = {
    ce_id: e.id,
    ce_type: e.type,
    'content-type': 'application/cloudevents+json',
  };
  if (traceparent) headers['traceparent'] = traceparent;
  return { messageKey: key, eventId: e.id, eventType: e.type, topic: TOPICS.events, payload: e, headers };
}

/** 16 hex digits of a request hash (a stored hash may carry its key id before a ':'). */
export function hashTag(hash: string): string {
  return hash.slice(hash.lastIndexOf(':') + 1).slice(0, 16);
}

/** What every event of a batch entry says about it (its state change, a contradiction of it). */
export function entryFields(batch: BatchRow, item: BatchItemRow) {
  return {
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
    providerApi: batch.providerApi,
    subState: item.subState ?? undefined,
    // The provider's fee (issue 32): on a settled entry's event, when the provider said it.
    fee: item.fee && (item.status === 'SUCCESS' || item.status === 'REVERSED') ? item.fee : undefined,
  } as const;
}
