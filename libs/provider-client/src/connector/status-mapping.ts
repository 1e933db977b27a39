import { type PayoutStatus } from '#contracts';

/**
 * Provider transfer statuses (v1 getTransferStatus, batch entries, and v2) to ledger statuses. A
 * status not listed here is kept in last_error (providerStatus), counted, logged, and the row is
 * polled again: never dropped, never guessed.
 */
export const PROVIDER_STATUS: Readonly<Record<string, PayoutStatus>> = {
  SUCCESS: 'SUCCESS',
  COMPLETED: 'SUCCESS',
  PENDING: 'PENDING',
  RECEIVED: 'PENDING',
  QUEUED: 'PENDING',
  APPROVAL_PENDING: 'PENDING',
  SCHEDULED: 'PENDING',
  FAILED: 'FAILED',
  ERROR: 'FAILED',
  REJECTED: 'REJECTED',
  MANUALLY_REJECTED: 'REJECTED',
  REVERSED: 'REVERSED',
};

export function mapProviderStatus(raw: string | undefined | null): PayoutStatus | undefined {
  return raw ? PROVIDER_STATUS[raw.trim().toUpperCase()] : undefined;
}
