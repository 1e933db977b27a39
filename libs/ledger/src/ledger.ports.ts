import type pg from 'pg';
import { type OutboxMessage } from './events.js';

/**
 * Writes events into the transactional outbox, inside the caller's transaction. The outbox lib's
 * repository is one; the ledger does not depend on it.
 */
export interface LedgerOutbox {
  enqueue(db: pg.PoolClient, rows: readonly OutboxMessage[]): Promise<unknown>;
}

/** Who asks for a state change: the `component` of its log line and the label of its stale count. */
export type ChangeSource = 'intake' | 'executor' | 'reconciler' | 'batches' | 'operations' | 'webhook';

/** Counts a change dropped because its row had moved on meanwhile (payouts_stale_results_total). */
export type StaleCounter = (source: ChangeSource) => void;

/**
 * Counts a payout handed to a person (payouts_requires_attention_total), whoever hands it over:
 * alerts watch it, so it is counted where the state changes, not by each caller.
 */
export type AttentionCounter = (reason: string, source: ChangeSource) => void;

/**
 * Counts a contradiction recorded for the first time (payouts_contradictions_total): the alert
 * watches it, so it is counted where it is written, not by each caller (ADR 0018).
 */
export type ContradictionCounter = (labels: {
  readonly kind: string;
  readonly published: string;
  readonly observed: string;
  readonly source: string;
}) => void;

/**
 * Counts money paid out (payouts_paid_amount_paise_total, issue 32): a payout or batch entry that
 * enters SUCCESS, after its commit, with its account and amount in integer paise. The outflow the
 * FundsTimeToEmpty alert divides the balance by; counted where the state changes, once per change.
 */
export type PaidCounter = (accountId: string, amountPaise: bigint) => void;
