import { type PayoutStatus } from '#contracts';

/**
 * Provider transfer statuses (legacy getTransferStatus and v2) to ledger statuses. A status not
 * listed here is kept in last_error (providerStatus), counted, logged, and the row is polled
 * again: never dropped, never guessed.
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
 * When to look next, from how many checks a row has had. Past the end of the schedule the row
 * needs a person: REQUIRES_ATTENTION (never silently failed, never polled forever).
 */
export function nextCheckDelay(schedule: readonly number[], checksSoFar: number): number | undefined {
  return schedule[checksSoFar];
}

export function parseSchedule(spec: string): number[] {
  const out = spec
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => {
      const m = /^(\d+)(ms|s|m|h)?$/.exec(s);
      if (!m) throw new Error(`bad schedule entry ${JSON.stringify(s)}: use e.g. 30s, 2m, 1h`);
      const n = Number(m[1]);
      const unit = m[2] ?? 'ms';
      return n * (unit === 'h' ? 3_600_000 : unit === 'm' ? 60_000 : unit === 's' ? 1_000 : 1);
    });
  if (out.length === 0) throw new Error('the schedule needs at least one entry');
  return out;
}
