import type pg from 'pg';
import { type BatchStatus, type ProviderApi, type ProviderSubState } from '#contracts';
import { type BatchItemRow, type BatchRow, type BatchTotals } from './ledger.types.js';

/*
 * The batch and entry rows as the repositories read them: column lists and mappings, shared by
 * the reads and scheduling (BatchRepository) and the ledger's moves (BatchMoves).
 */

export type Db = pg.Pool | pg.PoolClient;

export const COLUMNS = `id, account_id, batch_transfer_id, batch_format, request_hash, entry_count, total_amount,
  status, version, attempt, reference_id, status_code, reason, request_id, totals, created_at, updated_at, traceparent, provider_api`;

export interface RawBatch {
  id: string;
  account_id: string;
  batch_transfer_id: string;
  batch_format: BatchRow['batchFormat'];
  request_hash: string;
  entry_count: number;
  total_amount: string;
  status: BatchStatus;
  version: number;
  attempt: number;
  reference_id: string | null;
  status_code: string | null;
  reason: string | null;
  request_id: string | null;
  totals: BatchTotals | null;
  created_at: Date;
  updated_at: Date;
  traceparent: string | null;
  provider_api: ProviderApi;
}

export const ITEM_COLUMNS =
  'batch_id, transfer_id, position, amount, entry, status, version, reference_id, utr, reason, sub_state, updated_at, fee_charge, fee_tax';

export interface RawItem {
  batch_id: string;
  transfer_id: string;
  position: number;
  amount: string;
  entry: Record<string, unknown>;
  status: string;
  version: number;
  reference_id: string | null;
  utr: string | null;
  reason: string | null;
  sub_state: ProviderSubState | null;
  updated_at: Date;
  fee_charge: string | null;
  fee_tax: string | null;
}

export function toItem(r: RawItem): BatchItemRow {
  return {
    batchId: r.batch_id,
    transferId: r.transfer_id,
    position: r.position,
    amount: r.amount,
    entry: r.entry,
    status: r.status,
    version: r.version,
    referenceId: r.reference_id,
    utr: r.utr,
    reason: r.reason,
    subState: r.sub_state,
    updatedAt: r.updated_at,
    fee:
      r.fee_charge === null
        ? null
        : r.fee_tax === null
          ? { charge: r.fee_charge }
          : { charge: r.fee_charge, tax: r.fee_tax },
  };
}

export function toRow(r: RawBatch): BatchRow {
  return {
    id: r.id,
    accountId: r.account_id,
    batchTransferId: r.batch_transfer_id,
    batchFormat: r.batch_format,
    requestHash: r.request_hash,
    entryCount: r.entry_count,
    totalAmount: r.total_amount,
    status: r.status,
    version: r.version,
    attempt: r.attempt,
    referenceId: r.reference_id,
    statusCode: r.status_code,
    reason: r.reason,
    requestId: r.request_id,
    totals: r.totals,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    traceparent: r.traceparent,
    providerApi: r.provider_api,
  };
}
