import { type EndpointId } from './settings.js';
import { BATCH_ENDPOINTS, stepAt, type AccountState, type TransferStatus } from './state.js';

/**
 * The provider's own account of every id it was asked to pay: what a run judges the service's
 * published states against. Money moved and not returned is `paid`; `returned` and `failed` say
 * whether it ever came back or never went.
 */
export interface IdOutcome {
  readonly account: string;
  /** The endpoint of the first initiation (batch entries: requestBatchTransfer). */
  readonly endpoint: EndpointId;
  readonly transferId: string;
  /** Initiations received for the id, and how many the provider accepted (applied). */
  readonly initiations: number;
  readonly accepted: number;
  /** Sandbox clock of the first and last accepted initiation; null when none was. */
  readonly firstAcceptedAt: number | null;
  readonly lastAcceptedAt: number | null;
  /**
   * Where it stands now: a transfer status, `NOT_APPLIED` (never accepted), or for a self
   * withdrawal (no status endpoint) `SUCCESS` once accepted.
   */
  readonly status: TransferStatus | 'NOT_APPLIED';
  /** Every status reached so far, in order. */
  readonly reached: readonly TransferStatus[];
  /**
   * Payments that went out and were not returned: 0 or 1 for deduplicated transfers; one per
   * accepted initiation for internal transfers and self withdrawals (the provider does not
   * deduplicate them).
   */
  readonly paid: number;
  /** Reached REVERSED (the money came back). */
  readonly returned: boolean;
  /** Ends FAILED or REJECTED (the money did not move). */
  readonly failed: boolean;
}

type Family = 'transfer' | 'internalTransfer' | 'selfWithdrawal';

function familyOf(endpoint: EndpointId): Family {
  if (endpoint === 'internalTransfer' || endpoint === 'selfWithdrawal') return endpoint;
  return 'transfer';
}

interface Tally {
  endpoint: EndpointId;
  initiations: number;
  accepted: number;
  first: number | null;
  last: number | null;
}

/** Every id the account received (batch ids themselves excluded: their entries are listed). */
export function outcomesOf(account: AccountState, now: number): IdOutcome[] {
  const tallies = new Map<string, Tally & { family: Family; id: string }>();
  for (const r of account.received) {
    const batchId = account.batches.has(r.transferId) && !account.transfers.has(r.transferId);
    if (BATCH_ENDPOINTS.includes(r.endpoint) && batchId) continue;
    const family = familyOf(r.endpoint);
    const key = `${family}\u0000${r.transferId}`;
    let t = tallies.get(key);
    if (!t) {
      t = {
        family,
        id: r.transferId,
        endpoint: r.endpoint,
        initiations: 0,
        accepted: 0,
        first: null,
        last: null,
      };
      tallies.set(key, t);
    }
    t.initiations += 1;
    if (!r.accepted) continue;
    t.accepted += 1;
    t.first ??= r.at;
    t.last = r.at;
  }
  const out: IdOutcome[] = [];
  for (const t of tallies.values()) {
    const base = {
      account: account.clientId,
      endpoint: t.endpoint,
      transferId: t.id,
      initiations: t.initiations,
      accepted: t.accepted,
      firstAcceptedAt: t.first,
      lastAcceptedAt: t.last,
    };
    if (t.family !== 'transfer') {
      // Both complete on acceptance (the sandbox's internal transfers are SUCCESS at once).
      const status = t.accepted > 0 ? 'SUCCESS' : 'NOT_APPLIED';
      out.push({
        ...base,
        status,
        reached: t.accepted > 0 ? ['SUCCESS'] : [],
        paid: t.accepted,
        returned: false,
        failed: false,
      });
      continue;
    }
    const record = account.transfers.get(t.id);
    if (!record) {
      out.push({ ...base, status: 'NOT_APPLIED', reached: [], paid: 0, returned: false, failed: false });
      continue;
    }
    const reached: TransferStatus[] = [];
    for (const s of record.steps) if (s.at <= now && reached.at(-1) !== s.status) reached.push(s.status);
    const status = stepAt(record, now).status;
    out.push({
      ...base,
      status,
      reached,
      paid: status === 'SUCCESS' && t.accepted > 0 ? 1 : 0,
      returned: reached.includes('REVERSED'),
      failed: status === 'FAILED' || status === 'REJECTED',
    });
  }
  return out;
}
