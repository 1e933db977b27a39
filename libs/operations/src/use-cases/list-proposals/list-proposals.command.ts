import { type ProposalState } from '../../proposal.repository.js';
import { decodeCursor, MAX_PAGE, type SearchQuery } from '../../search.js';
import { invalid } from '../shared/refusals.js';

const STATES: readonly ProposalState[] = ['open', 'approved', 'rejected', 'stale'];

export interface ListProposalsCommand {
  /** null: every state. */
  readonly state: ProposalState | null;
  readonly limit: number;
  /** The last id of the previous page. */
  readonly afterId: string | null;
}

/** `?state=` (open, approved, rejected, stale or all), `?limit=` (default 50), `?cursor=`. */
export function parseListProposals(query: SearchQuery): ListProposalsCommand {
  return parseProposalPage(query, STATES);
}

/** A page of proposals in one of `states` (or all), as `parseListProposals` reads it. */
export function parseProposalPage<S extends string>(
  query: SearchQuery,
  states: readonly S[],
): { state: S | null; limit: number; afterId: string | null } {
  const q: Record<string, string | undefined> = {};
  for (const k of ['state', 'limit', 'cursor']) {
    const v = query[k];
    if (typeof v !== 'string' && v !== undefined) throw invalid(`${k} is given more than once`);
    q[k] = v;
  }
  const s = q['state'];
  const state = s === undefined || s === '' || s === 'all' ? null : states.find((x) => x === s);
  if (state === undefined) throw invalid(`state must be ${states.join(', ')} or all`);
  const limit = q['limit'] === undefined ? 50 : Number(q['limit']);
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE)
    throw invalid(`limit must be an integer from 1 to ${MAX_PAGE}`);
  const cursor = decodeCursor(q['cursor']);
  if (cursor && (!('id' in cursor) || 'createdAt' in cursor))
    throw invalid('cursor is not one this API returned');
  return { state, limit, afterId: cursor?.id ?? null };
}
