import type pg from 'pg';
import { type PayoutStatus, type ProviderApi, type ProviderSubState } from '#contracts';
import { type PayoutRow } from './ledger.types.js';

/*
 * The payout row as the repositories read it: its column list and mapping, shared by the reads
 * and scheduling (PayoutRepository) and the ledger's moves (PayoutMoves).
 */

export type Db = pg.Pool | pg.PoolClient;

export const COLUMNS = `id, account_id, transfer_id, kind, request_hash, request, request_secrets, amount, status, last_error,
  version, attempt, status_code, reason, reference_id, svc_transfer_id, utr, request_id, next_check_at,
  check_count, created_at, updated_at, state_changed_at, traceparent, reopened_at, provider_api, maybe_reached,
  resend_refused_at, sub_state, fee_charge, fee_tax`;

export interface RawPayout {
  id: string;
  account_id: string;
  transfer_id: string;
  kind: PayoutRow['kind'];
  request_hash: string;
  request: Record<string, unknown>;
  request_secrets: PayoutRow['requestSecrets'];
  last_error: Record<string, unknown> | null;
  amount: string;
  status: PayoutStatus;
  version: number;
  attempt: number;
  status_code: string | null;
  reason: string | null;
  reference_id: string | null;
  svc_transfer_id: string | null;
  utr: string | null;
  request_id: string | null;
  next_check_at: Date | null;
  check_count: number;
  created_at: Date;
  updated_at: Date;
  state_changed_at: Date;
  traceparent: string | null;
  reopened_at: Date | null;
  provider_api: ProviderApi;
  maybe_reached: boolean;
  resend_refused_at: Date | null;
  sub_state: ProviderSubState | null;
  /** numeric, read as text (pg's default for numeric): exact. */
  fee_charge: string | null;
  fee_tax: string | null;
}

export function toRow(r: RawPayout): PayoutRow {
  return {
    id: r.id,
    accountId: r.account_id,
    transferId: r.transfer_id,
    kind: r.kind,
    requestHash: r.request_hash,
    request: r.request,
    requestSecrets: r.request_secrets,
    lastError: r.last_error,
    amount: r.amount,
    status: r.status,
    version: r.version,
    attempt: r.attempt,
    statusCode: r.status_code,
    reason: r.reason,
    referenceId: r.reference_id,
    svcTransferId: r.svc_transfer_id,
    utr: r.utr,
    requestId: r.request_id,
    nextCheckAt: r.next_check_at,
    checkCount: r.check_count,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    stateChangedAt: r.state_changed_at,
    traceparent: r.traceparent,
    reopenedAt: r.reopened_at,
    providerApi: r.provider_api,
    maybeReached: r.maybe_reached,
    resendRefusedAt: r.resend_refused_at,
    subState: r.sub_state,
    fee:
      r.fee_charge === null
        ? null
        : r.fee_tax === null
          ? { charge: r.fee_charge }
          : { charge: r.fee_charge, tax: r.fee_tax },
  };
}
