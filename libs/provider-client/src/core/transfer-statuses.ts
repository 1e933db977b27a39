import { type PayoutStatus, type ProviderSubState } from '#contracts';
import { type FailureKind } from './outcome.js';

/**
 * What one transfer status of the provider means: how a status call answering it is classified
 * (the adapters), and the ledger's status and sub-state it becomes (the connector). One row per
 * status (or status/status_code), read by both, so the two can never disagree (issue 29: the v1
 * status ERROR was `unknown` to the adapter and FAILED to the connector).
 */
export type TransferStatusMeaning =
  | {
      readonly outcome: 'pending';
      readonly ledger: 'PENDING';
      /** Where the transfer waits at the provider, when the status says. */
      readonly subState?: ProviderSubState;
      readonly meaning: string;
    }
  | { readonly outcome: 'success'; readonly ledger: 'SUCCESS'; readonly meaning: string }
  | {
      readonly outcome: 'failed';
      readonly kind: Extract<FailureKind, 'rejected' | 'reversed'>;
      readonly ledger: Extract<PayoutStatus, 'FAILED' | 'REJECTED' | 'REVERSED'>;
      /** Failed for the account's balance (issue 32): counted as a bounce, never read otherwise. */
      readonly shortOfFunds?: true;
      readonly meaning: string;
    }
  /** In doubt: no ledger status; the row is kept as it is and asked again, never settled on it. */
  | { readonly outcome: 'unknown'; readonly ledger?: undefined; readonly meaning: string };

const waiting = (meaning: string, subState?: ProviderSubState): TransferStatusMeaning =>
  subState
    ? { outcome: 'pending', ledger: 'PENDING', subState, meaning }
    : { outcome: 'pending', ledger: 'PENDING', meaning };
const paid = (meaning: string): TransferStatusMeaning => ({ outcome: 'success', ledger: 'SUCCESS', meaning });
const refused = (ledger: 'FAILED' | 'REJECTED', meaning: string): TransferStatusMeaning => ({
  outcome: 'failed',
  kind: 'rejected',
  ledger,
  meaning,
});
const inDoubt = (meaning: string): TransferStatusMeaning => ({ outcome: 'unknown', meaning });

/**
 * Provider transfer statuses (v1 getTransferStatus, v1 and v2 batch entries, v2 transfers and
 * their initiation answers), keyed `STATUS` or `STATUS/STATUS_CODE` (a code refines its status;
 * the status decides when the code is not listed). Sources: provider-facts.md ("Transfer status",
 * "Long waits, balance and approvals"), provider-v2.md ("Transfer statuses"). A status not listed
 * is in doubt: kept in last_error, counted, logged, asked again; never dropped, never guessed.
 */
export const TRANSFER_STATUSES: Readonly<Record<string, TransferStatusMeaning>> = {
  RECEIVED: waiting('Accepted for processing'),
  PENDING: waiting('Awaiting the partner bank'),
  'PENDING/SENT_TO_BANK': waiting('With the beneficiary bank', 'sent_to_bank'),
  'PENDING/SCHEDULED_FOR_NEXT_WORKINGDAY': waiting(
    'Scheduled for the next working day',
    'scheduled_next_working_day',
  ),
  // Low balance: held up to 10 days (4 by default), sent once the account is funded.
  QUEUED: waiting('Queued for low balance', 'queued'),
  // Waits for a person in the provider's dashboard; its codes APPROVAL_PENDING,
  // VELOCITY_CHECK_FAILED, TRANSFER_LIMIT_BREACH and ANOMALY_DETECTION all wait for approval.
  APPROVAL_PENDING: waiting('Waiting for approval in the provider dashboard', 'approval_pending'),
  SENT_TO_BANK: waiting('With the beneficiary bank', 'sent_to_bank'),
  SCHEDULED_FOR_NEXT_WORKINGDAY: waiting('Scheduled for the next working day', 'scheduled_next_working_day'),
  // Not in the documents; read as the same wait for a later working day.
  SCHEDULED: waiting('Scheduled for a later working day', 'scheduled_next_working_day'),
  SUCCESS: paid('Transfer SUCCESS'),
  COMPLETED: paid('Transfer COMPLETED'),
  FAILED: refused('FAILED', 'Transfer FAILED'),
  // The balance could not fund it: at once, or after waiting QUEUED (provider-facts.md, "Long
  // waits, balance and approvals"). A refusal like any: the money stayed.
  'FAILED/INSUFFICIENT_BALANCE': {
    outcome: 'failed',
    kind: 'rejected',
    ledger: 'FAILED',
    shortOfFunds: true,
    meaning: 'Transfer FAILED for insufficient balance',
  },
  REJECTED: refused('REJECTED', 'Transfer REJECTED'),
  MANUALLY_REJECTED: refused('REJECTED', 'Transfer rejected by a team member'),
  // SUCCESS can later become REVERSED: a terminal failure of its own kind.
  REVERSED: { outcome: 'failed', kind: 'reversed', ledger: 'REVERSED', meaning: 'Transfer REVERSED' },
  // "Transfer triggered; no response from bank": the money may have moved (issue 29).
  ERROR: inDoubt('Transfer ERROR: no response from the bank; in doubt'),
};

const UNDOCUMENTED = inDoubt('Undocumented transfer status');

/** The meaning of a transfer's status (any case) and, on v2, its status_code. */
export function transferStatusMeaning(
  status: string | undefined | null,
  code?: string | null,
): TransferStatusMeaning {
  const s = status?.trim().toUpperCase();
  if (!s) return UNDOCUMENTED;
  const c = code?.trim().toUpperCase();
  const refined = c ? TRANSFER_STATUSES[`${s}/${c}`] : undefined;
  return refined ?? (Object.hasOwn(TRANSFER_STATUSES, s) ? TRANSFER_STATUSES[s]! : UNDOCUMENTED);
}

/** The sub-state of a meaning, when it has one. */
export function subStateOf(m: TransferStatusMeaning): ProviderSubState | undefined {
  return m.outcome === 'pending' ? m.subState : undefined;
}
