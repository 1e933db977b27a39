import { type EventData } from '#contracts';
import { type TransferHolder } from './transfer-identity.repository.js';
import { BATCH_EVENT_NAME, eventNameOf, PAYOUT_EVENT_NAME } from './state-machine.js';
import { type BatchItemRow, type BatchRow, type PayoutRow } from './ledger.types.js';
import {
  batchItemEventId,
  batchKey,
  beneficiaryOf,
  entryFields,
  envelope,
  hashTag,
  message,
  type OutboxMessage,
  payoutKey,
  stateEventId,
  strip,
} from './event-envelope.js';

export {
  batchItemEventId,
  batchKey,
  beneficiaryOf,
  EVENT_SOURCE,
  type OutboxMessage,
  payoutKey,
  stateEventId,
} from './event-envelope.js';
export {
  contradictedEvent,
  contradictionEventId,
  entryContradictedEvent,
  entryContradictionEventId,
} from './contradiction-events.js';

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
    // The provider's fee (issue 32): on a settled payout's event, when the provider said it.
    fee: row.fee && (row.status === 'SUCCESS' || row.status === 'REVERSED') ? row.fee : undefined,
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
