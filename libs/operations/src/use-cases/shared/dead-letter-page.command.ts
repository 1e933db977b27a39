import { MAX_PAGE_LIMIT } from '../../dead-letters.js';
import { invalid } from './refusals.js';

const DEFAULT_DEAD_PAGE = 50;

/** A page of a dead list, newest first: ids below `beforeId` (none: from the newest). */
export interface DeadLetterPageCommand {
  readonly beforeId: string | undefined;
  readonly limit: number;
}

/** `?cursor=` (an id this API gave out) and `?limit=` (1 to 200, default 50). */
export function parseDeadLetterPage(query: {
  cursor?: string | undefined;
  limit?: string | undefined;
}): DeadLetterPageCommand {
  const limit = query.limit === undefined ? DEFAULT_DEAD_PAGE : Number(query.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_LIMIT)
    throw invalid(`limit must be an integer from 1 to ${MAX_PAGE_LIMIT}`);
  const { cursor } = query;
  if (cursor === undefined || cursor === '') return { beforeId: undefined, limit };
  if (!/^[1-9][0-9]{0,17}$/.test(cursor)) throw invalid('cursor is not one this API gave out');
  return { beforeId: cursor, limit };
}
