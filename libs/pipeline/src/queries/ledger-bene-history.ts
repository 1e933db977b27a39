import type pg from 'pg';
import { type BeneHistoryQueryData } from '#contracts';
import { type BeneHistoryRepository, type BeneHistoryRow } from '#ledger';

/** The v1 beneHistory item shape, so a v2 account's reply reads as a v1 one does. */
export interface BeneHistoryItem {
  readonly transferDate: string;
  readonly amount: string;
  readonly mode: string;
  readonly beneId: string;
  readonly status: string;
}

/** The ledger's states in the provider's history words: in flight is PENDING. */
export function historyStatus(ledgerStatus: string): string {
  switch (ledgerStatus) {
    case 'SUCCESS':
    case 'FAILED':
    case 'REVERSED':
    case 'REJECTED':
      return ledgerStatus;
    default:
      return 'PENDING';
  }
}

export function historyItem(beneId: string, r: BeneHistoryRow): BeneHistoryItem {
  return {
    transferDate: r.createdAt.toISOString(),
    amount: r.amount,
    mode: r.mode,
    beneId,
    status: historyStatus(r.status),
  };
}

/** Reads a beneficiary's history from somewhere other than the provider. */
export interface BeneHistoryReader {
  page(accountId: string, q: BeneHistoryQueryData): Promise<BeneHistoryItem[]>;
}

/**
 * query.bene_history on a v2 account: the provider has no v2 history, so it is answered from
 * the payouts this service made, paged as v1 pages (perPage default and maximum 25, page from 1,
 * newest first).
 */
export class LedgerBeneHistory implements BeneHistoryReader {
  constructor(
    private readonly pool: pg.Pool,
    private readonly repo: BeneHistoryRepository,
  ) {}

  async page(accountId: string, q: BeneHistoryQueryData): Promise<BeneHistoryItem[]> {
    const rows = await this.repo.page(this.pool, {
      accountId,
      beneId: q.beneId,
      startDate: q.startDate,
      endDate: q.endDate,
      perPage: q.perPage ?? 25,
      page: q.page ?? 1,
    });
    return rows.map((r) => historyItem(q.beneId, r));
  }
}
