import { type Cursor, MAX_PAGE } from '../../search.js';
import { type SearchRow } from '../../search.repository.js';
import { type OperationsPorts } from '../operations.ports.js';
import { type SearchPayoutsCommand } from '../search-payouts/search-payouts.command.js';

/** One page of a search (keyset): payouts newest first, or a batch's entries in order. */
export function searchPage(
  d: Pick<OperationsPorts, 'pool' | 'search'>,
  s: SearchPayoutsCommand,
  limit: number,
): Promise<SearchRow[]> {
  const c = s.cursor;
  if (s.batch !== undefined)
    return d.search.batchEntries(
      d.pool,
      s.batch,
      s.filter,
      c && 'batchId' in c ? c : null,
      Math.min(limit, MAX_PAGE + 1),
    );
  return d.search.payouts(d.pool, s.filter, c && 'createdAt' in c ? c : null, limit);
}

/** Where a page that ended on this row goes on. */
export function cursorOf(r: SearchRow): Cursor {
  return r.batchId === null
    ? { createdAt: r.createdKey, id: r.key }
    : { batchId: r.batchId, position: Number(r.key) };
}
