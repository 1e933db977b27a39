import { type HeldKey } from '#ledger';
import { MAX_PAGE } from '../../search.js';
import { type OperationsPorts } from '../operations.ports.js';
import { invalid, notFound } from '../shared/refusals.js';

export interface ListHeldForFundsCommand {
  readonly accountId: string;
  readonly limit: number;
  /** Where the previous page ended. */
  readonly after: HeldKey | null;
}

/** A payout or batch held for funds, as the operations API answers it. */
export interface HeldForFundsView {
  readonly subject: 'payout' | 'batch';
  readonly accountId: string;
  /** The payout's transferId, or the batch's batchTransferId. */
  readonly transferId: string;
  /** The payout's amount, or the batch's total (a batch is held and sent whole). */
  readonly amount: string;
  /** 1 for a payout; a batch's entries. */
  readonly entries: number;
  readonly heldSince: string | null;
  /** As recorded when it was held: `insufficient_funds` or `no_balance_reading`. */
  readonly reason: string | null;
  readonly createdAt: string;
}

const PG_TIME = /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}(\.\d{1,6})?([+-]\d{2}(:\d{2})?|Z)$/;

function encodeAfter(k: HeldKey): string {
  return Buffer.from(JSON.stringify(k)).toString('base64url');
}

function decodeAfter(v: string): HeldKey {
  try {
    const c = JSON.parse(Buffer.from(v, 'base64url').toString('utf8')) as Record<string, unknown>;
    const { createdAt, subject, id } = c;
    if (
      typeof createdAt === 'string' &&
      PG_TIME.test(createdAt) &&
      (subject === 'payout' || subject === 'batch') &&
      typeof id === 'string' &&
      /^\d{1,19}$/.test(id)
    )
      return { createdAt, subject, id };
  } catch {
    // falls through
  }
  throw invalid('after is not a `next` this API returned');
}

/** `{accountId}` (path), `?limit=` (default 100), `?after=` (`next` of the previous page). */
export function parseListHeldForFunds(
  accountId: string,
  q: Record<string, unknown>,
): ListHeldForFundsCommand {
  const one = (k: string): string | undefined => {
    const v = q[k];
    if (v !== undefined && typeof v !== 'string') throw invalid(`${k} is given more than once`);
    return v === '' ? undefined : v;
  };
  const limit = one('limit') === undefined ? 100 : Number(one('limit'));
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE)
    throw invalid(`limit must be an integer from 1 to ${MAX_PAGE}`);
  const after = one('after');
  return { accountId, limit, after: after === undefined ? null : decodeAfter(after) };
}

/**
 * One account's payouts and batches held for funds (HELD_FOR_FUNDS, ADR 0027), oldest first: what
 * finance has to fund, or an operator to cancel upstream, before the account's maximum hold.
 */
export class ListHeldForFunds {
  constructor(private readonly d: Pick<OperationsPorts, 'funds'>) {}

  async execute(c: ListHeldForFundsCommand): Promise<{ items: HeldForFundsView[]; next: string | null }> {
    const funds = this.d.funds;
    if (!funds) return { items: [], next: null };
    const rows = await funds.held(c.accountId, c.after, c.limit);
    // An account taken out of the configuration is still listed while it has anything held.
    if (rows.length === 0 && c.after === null && !funds.accountIds.includes(c.accountId))
      throw notFound(`no provider account ${c.accountId}`);
    const last = rows.length === c.limit ? rows[rows.length - 1]! : null;
    return {
      items: rows.map((r) => ({
        subject: r.subject,
        accountId: r.accountId,
        transferId: r.transferId,
        amount: r.amount,
        entries: r.entries,
        heldSince: r.heldSince?.toISOString() ?? null,
        reason: r.reason,
        createdAt: r.createdAt.toISOString(),
      })),
      next: last ? encodeAfter({ createdAt: last.createdKey, subject: last.subject, id: last.id }) : null,
    };
  }
}
