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

/**
 * The state a transfer webhook event announces (v1 and v2 share the event names);
 * TRANSFER_ACKNOWLEDGED announces none (it follows SUCCESS).
 */
export const WEBHOOK_EVENT_STATUS: Readonly<Record<string, PayoutStatus | null>> = {
  TRANSFER_SUCCESS: 'SUCCESS',
  TRANSFER_FAILED: 'FAILED',
  TRANSFER_REVERSED: 'REVERSED',
  TRANSFER_REJECTED: 'REJECTED',
  TRANSFER_ACKNOWLEDGED: null,
};
