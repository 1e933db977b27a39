import type pg from 'pg';
import { type Command } from '#contracts';
import {
  type BatchRepository,
  batchStateEvent,
  conflictEvent,
  type OutboxMessage,
  type PayoutKind,
  type PayoutRepository,
  payoutStateEvent,
  type SecretsCipher,
  type TransferIdentityRepository,
} from '#ledger';
import { type AppLogger } from '#observability';
import { type CommandResult } from '../shared/pipeline.metrics.js';
import { type Valid } from './screen.js';
import { idInUse } from './transfer-id-in-use.js';

export const kindOf = (c: Command): PayoutKind => c.type.slice('payout.'.length) as PayoutKind;

/** A command's identity in the ledger: payouts and batches are separate namespaces of identities. */
export const identityKey = (v: Valid): string => `${v.isBatch ? 'b' : 'p'}|${v.accountId}|${v.identity}`;

export interface RepeatDeps {
  readonly payouts: Pick<PayoutRepository, 'findByIdentities'>;
  readonly batches: Pick<BatchRepository, 'findByIdentities'>;
  readonly identities: Pick<TransferIdentityRepository, 'holdersOf'>;
  readonly cipher: Pick<SecretsCipher, 'sameRequest'>;
  readonly logger: AppLogger;
}

/**
 * The answer to each command that did not insert, in intake's transaction: it repeats an identity
 * now in the ledger. The same request re-emits the current state (duplicate); a different request
 * is a conflict, and the first request stands; a command without a row of its own has a transfer
 * id (or an entry's, `heldByBatch`) held by another transfer of the account (transfer_id_in_use).
 */
export async function answerRepeats(
  d: RepeatDeps,
  client: pg.PoolClient,
  repeats: readonly Valid[],
  heldByBatch: ReadonlyMap<string, string>,
  outcomes: Array<{ type: string; result: CommandResult }>,
): Promise<OutboxMessage[]> {
  const events: OutboxMessage[] = [];
  const payoutRows = await d.payouts.findByIdentities(
    client,
    repeats.filter((v) => !v.isBatch).map((v) => ({ accountId: v.accountId, transferId: v.identity })),
  );
  const batchRows = await d.batches.findByIdentities(
    client,
    repeats.filter((v) => v.isBatch).map((v) => ({ accountId: v.accountId, batchTransferId: v.identity })),
  );
  const payoutByKey = new Map(payoutRows.map((r) => [`p|${r.accountId}|${r.transferId}`, r]));
  const batchByKey = new Map(batchRows.map((r) => [`b|${r.accountId}|${r.batchTransferId}`, r]));
  // No row of its own: its transfer id (or an entry's) is held by another transfer of the account.
  const heldId = (v: Valid) => (v.isBatch ? heldByBatch.get(identityKey(v)) : v.identity);
  const refused = repeats.filter((v) => !(v.isBatch ? batchByKey : payoutByKey).has(identityKey(v)));
  const holders = await d.identities.holdersOf(
    client,
    refused.flatMap((v) => {
      const transferId = heldId(v);
      return transferId === undefined ? [] : [{ accountId: v.accountId, transferId }];
    }),
  );
  const holderOf = new Map(holders.map((h) => [`${h.accountId}|${h.transferId}`, h]));
  for (const v of repeats) {
    const current = v.isBatch ? batchByKey.get(identityKey(v)) : payoutByKey.get(identityKey(v));
    const holder = current ? undefined : holderOf.get(`${v.accountId}|${heldId(v) ?? ''}`);
    if (holder) {
      const kind = v.isBatch ? 'batch_transfer' : kindOf(v.command);
      events.push(idInUse(d.logger, { ...v, kind, requestId: v.command.requestId }, holder));
      outcomes.push({ type: v.command.type, result: 'conflict' });
      continue;
    }
    if (!current) throw new Error('a repeated command has no ledger row: refusing to commit the batch');
    // Checked with the key the stored hash was made with: a retry after a key rotation is a duplicate.
    if (d.cipher.sameRequest(current.requestHash, v.canonical)) {
      events.push('batchTransferId' in current ? batchStateEvent(current) : payoutStateEvent(current));
      outcomes.push({ type: v.command.type, result: 'duplicate' });
    } else {
      const kind = v.isBatch ? 'batch_transfer' : kindOf(v.command);
      events.push(conflictEvent(current, kind, v.hash, v.message.traceparent));
      outcomes.push({ type: v.command.type, result: 'conflict' });
      d.logger.warn(
        { transferId: v.identity, requestId: v.command.requestId ?? null, accountId: v.accountId, kind },
        'idempotency conflict: a different request reused an id; the first request stands',
      );
    }
  }
  return events;
}
