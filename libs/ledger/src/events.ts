import { SERVICE_SOURCE, TOPICS, type EventData, type PayoutEvent } from '#contracts';
import { maskAccountNumber, maskDigitRuns, maskVpa } from '#observability';
import { type ContradictionRow } from './contradiction.repository.js';
import { type TransferHolder } from './transfer-identity.repository.js';
import { BATCH_EVENT_NAME, eventNameOf, PAYOUT_EVENT_NAME } from './state-machine.js';
import { type BatchItemRow, type BatchRow, type PayoutRow } from './ledger.types.js';

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

function envelope(id: string, subject: string, type: string, data: EventData, at: Date): PayoutEvent {
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
function strip<T extends object>(o: T): T {
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
function message(key: string, e: PayoutEvent, traceparent?: string | null): OutboxMessage {
  const headers: Record<string, string> = {
    ce_id: e.id,
    ce_type: e.type,
    'content-type': 'application/cloudevents+json',
  };
  if (traceparent) headers['traceparent'] = traceparent;
  return { messageKey: key, eventId: e.id, eventType: e.type, topic: TOPICS.events, payload: e, headers };
}

/**
 * The event announcing a payout's current state. Personal data is masked; secrets are never in
 * `request`. A function of the row's current version only (its time is when that version began),
 * so re-emitting it for a duplicate command repeats the original event exactly.
 */
export function payoutStateEvent(row: PayoutRow): OutboxMessage {
  const at = row.stateChangedAt;
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
    providerApi: row.providerApi,
    subState: row.subState ?? undefined,
    beneficiary: beneficiaryOf(row.request),
    requestId: row.requestId ?? undefined,
    occurredAt: at.toISOString(),
  });
  const key = payoutKey(row.accountId, row.transferId);
  return message(
    key,
    envelope(
      stateEventId(key, row.version),
      row.transferId,
      `payouts.payout.${eventNameOf(PAYOUT_EVENT_NAME, row.status, row.version)}`,
      data,
      at,
    ),
    row.traceparent,
  );
}

/**
 * The event announcing a batch's current state, with the totals stored with that version. Like
 * a payout's, a function of the row's current version only: batch rows change `updated_at` only
 * with `version` (BatchRepository).
 */
export function batchStateEvent(row: BatchRow): OutboxMessage {
  const at = row.updatedAt;
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
    totals: row.totals ?? { entries: row.entryCount },
    providerApi: row.providerApi,
    requestId: row.requestId ?? undefined,
    occurredAt: at.toISOString(),
  });
  const key = batchKey(row.accountId, row.batchTransferId);
  return message(
    key,
    envelope(
      stateEventId(key, row.version),
      row.batchTransferId,
      `payouts.batch.${eventNameOf(BATCH_EVENT_NAME, row.status, row.version)}`,
      data,
      at,
    ),
    row.traceparent,
  );
}

/**
 * A repeat of an identity with a different request: the first request stands. Keyed like the
 * entity's own events (so it is ordered with them); the id names the entity's version and the
 * conflicting request, and the content is a function of both: a redelivered conflict is the same
 * event. Its time is therefore the time of that version (the conflict changes no state).
 */
export function conflictEvent(
  current: PayoutRow | BatchRow,
  conflictingKind: string,
  conflictingHash: string,
  /** The conflicting command's trace: that command caused this event. */
  traceparent?: string | null,
): OutboxMessage {
  const isBatch = 'batchTransferId' in current;
  const identity = isBatch ? current.batchTransferId : current.transferId;
  const key = isBatch ? batchKey(current.accountId, identity) : payoutKey(current.accountId, identity);
  const at = isBatch ? current.updatedAt : current.stateChangedAt;
  const data: EventData = {
    accountId: current.accountId,
    id: identity,
    kind: conflictingKind,
    status: current.status,
    version: current.version,
    reason: 'idempotency_conflict',
    occurredAt: at.toISOString(),
  };
  const id = `${stateEventId(key, current.version)}:conflict:${hashTag(conflictingHash)}`;
  return message(key, envelope(id, identity, 'payouts.command.conflict', data, at), traceparent);
}

/** The command a transfer id already held refused (issue 29): its own identity, kind and request. */
export interface RefusedCommand {
  readonly accountId: string;
  /** The command's identity: a transferId (withdrawalId), or a batchTransferId. */
  readonly identity: string;
  readonly isBatch: boolean;
  /** The command's kind: a payout kind, or batch_transfer. */
  readonly kind: string;
  readonly requestHash: string;
  readonly traceparent?: string | null;
}

/**
 * A command refused at intake because a transfer id it would send is held already by another
 * transfer of the account (issue 29): the provider has one namespace of transfer ids per account,
 * so a single payout X and a batch entry X are one transfer to it. Nothing of the command was
 * recorded nor sent. Keyed by the refused command's own key (its producer follows that key; no
 * state of it exists, so the id has no version: `<key>:conflict:<hash prefix>`); status REJECTED
 * (never sent: upstream may send it again under a new id), reason `transfer_id_in_use`, and
 * `heldBy` naming the id and its holder. A function of the command and the holder only, which
 * never change: a redelivered command gives the same event (its time: the holder's admission).
 */
export function transferIdInUseEvent(command: RefusedCommand, holder: TransferHolder): OutboxMessage {
  const key = command.isBatch
    ? batchKey(command.accountId, command.identity)
    : payoutKey(command.accountId, command.identity);
  const at = holder.createdAt;
  const data: EventData = {
    accountId: command.accountId,
    id: command.identity,
    kind: command.kind,
    status: 'REJECTED',
    version: 1,
    reason: TRANSFER_ID_IN_USE,
    heldBy: strip({
      transferId: holder.transferId,
      by: holder.batchId === null ? ('payout' as const) : ('batch_entry' as const),
      batchTransferId: holder.batchTransferId ?? undefined,
    }),
    occurredAt: at.toISOString(),
  };
  const id = `${key}:conflict:${hashTag(command.requestHash)}`;
  return message(
    key,
    envelope(id, command.identity, 'payouts.command.conflict', data, at),
    command.traceparent,
  );
}

/** The reason of a command refused because a transfer id it would send is held already. */
export const TRANSFER_ID_IN_USE = 'transfer_id_in_use';

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

/** 16 hex digits of a request hash (a stored hash may carry its key id before a ':'). */
function hashTag(hash: string): string {
  return hash.slice(hash.lastIndexOf(':') + 1).slice(0, 16);
}

/** What every event of a batch entry says about it (its state change, a contradiction of it). */
function entryFields(batch: BatchRow, item: BatchItemRow) {
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
  } as const;
}

/**
 * An entry of a batch changed state. Keyed by the batch's key, so entry events and the batch's own
 * events stay in one ordered stream; the subject is the entry's transferId. Its time is when the
 * entry's version began (items change `updated_at` only with `version`).
 */
export function batchItemEvent(batch: BatchRow, item: BatchItemRow): OutboxMessage {
  const at = item.updatedAt;
  const entry = item.entry;
  const data = strip<EventData>({
    ...entryFields(batch, item),
    beneficiary: beneficiaryOf(entry),
    occurredAt: at.toISOString(),
  });
  return message(
    batchKey(batch.accountId, batch.batchTransferId),
    envelope(
      batchItemEventId(batch.accountId, batch.batchTransferId, item.transferId, item.version),
      item.transferId,
      `payouts.batch_item.${item.status.toLowerCase()}`,
      data,
      at,
    ),
    batch.traceparent,
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

/** Provider notices a webhook brings that are about the account, not a payout (ADR 0013). */
export const PROVIDER_NOTICES = {
  LOW_BALANCE_ALERT: 'low_balance',
  BENEFICIARY_INCIDENT: 'beneficiary_incident',
} as const;
export type ProviderNotice = keyof typeof PROVIDER_NOTICES;

/**
 * A provider notice as an event: `payouts.provider.<low_balance|beneficiary_incident>`, keyed
 * `provider/<accountId>`, its subject the account, its id the webhook's identity (a redelivered
 * notice is the same event). Only the account, the notice and its time: the provider's free text
 * (which may name a beneficiary) stays out.
 */
export function providerNoticeEvent(
  accountId: string,
  notice: ProviderNotice,
  identity: string,
  at: Date,
): OutboxMessage {
  const key = `provider/${accountId}`;
  const id = `${key}:${notice.toLowerCase()}:${identity.slice(0, 16)}`;
  const data: EventData = {
    accountId,
    id: accountId,
    kind: 'provider_notice',
    status: notice,
    version: 1,
    occurredAt: at.toISOString(),
  };
  return message(key, envelope(id, accountId, `payouts.provider.${PROVIDER_NOTICES[notice]}`, data, at));
}
