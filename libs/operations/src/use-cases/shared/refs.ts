import { type BatchRow, type PayoutRow } from '#ledger';
import { type OperationsPorts } from '../operations.ports.js';
import { notFound } from './refusals.js';

/** A payout as the API names it (the path's account and transfer id). */
export interface PayoutRef {
  readonly accountId: string;
  readonly transferId: string;
}

/** A batch as the API names it (the path's account and batch transfer id). */
export interface BatchRef {
  readonly accountId: string;
  readonly batchTransferId: string;
}

export async function findPayout(
  d: Pick<OperationsPorts, 'pool' | 'payouts'>,
  { accountId, transferId }: PayoutRef,
): Promise<PayoutRow> {
  const row = await d.payouts.findOne(d.pool, accountId, transferId);
  if (!row) throw notFound(`no payout ${transferId} for account ${accountId}`);
  return row;
}

export async function findBatch(
  d: Pick<OperationsPorts, 'pool' | 'batches'>,
  { accountId, batchTransferId }: BatchRef,
): Promise<BatchRow> {
  const row = await d.batches.findOne(d.pool, accountId, batchTransferId);
  if (!row) throw notFound(`no batch ${batchTransferId} for account ${accountId}`);
  return row;
}
