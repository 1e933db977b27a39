import { type OutboxMessage, type TransferHolder, transferIdInUseEvent } from '#ledger';
import { type AppLogger } from '#observability';
import { type InboundMessage } from '../shared/ports.js';

/** The parts of a valid command the refusal names. */
export interface HeldIdCommand {
  readonly message: InboundMessage;
  readonly accountId: string;
  readonly identity: string;
  readonly isBatch: boolean;
  /** A payout kind, or batch_transfer. */
  readonly kind: string;
  readonly hash: string;
  readonly requestId?: string | undefined;
}

/**
 * A command refused at intake because a transfer id it would send is held already by another
 * transfer of the account (issue 29: one namespace of transfer ids, as at the provider): nothing
 * of it recorded nor sent, its producer told why on its own key (transferIdInUseEvent). A warn
 * line with ids only.
 */
export function idInUse(logger: AppLogger, v: HeldIdCommand, holder: TransferHolder): OutboxMessage {
  logger.warn(
    {
      accountId: v.accountId,
      ...(v.isBatch ? { batchTransferId: v.identity } : {}),
      transferId: holder.transferId,
      requestId: v.requestId ?? null,
      kind: v.kind,
      heldBy: holder.batchId === null ? 'payout' : 'batch_entry',
      heldByBatch: holder.batchTransferId,
    },
    'transfer id in use: a command reused an id another transfer of the account holds; refused, not sent',
  );
  return transferIdInUseEvent(
    {
      accountId: v.accountId,
      identity: v.identity,
      isBatch: v.isBatch,
      kind: v.kind,
      requestHash: v.hash,
      traceparent: v.message.traceparent,
    },
    holder,
  );
}
