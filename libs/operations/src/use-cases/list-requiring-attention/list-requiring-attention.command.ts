import { invalid } from '../shared/refusals.js';

export const MAX_ATTENTION_LIMIT = 500;
const DEFAULT_ATTENTION_LIMIT = 100;

export interface ListRequiringAttentionCommand {
  /** 1 to MAX_ATTENTION_LIMIT, of each list. */
  readonly limit: number;
}

/** `?limit=` (default 100). */
export function parseListRequiringAttention(query: {
  limit?: string | undefined;
}): ListRequiringAttentionCommand {
  const limit = query.limit === undefined ? DEFAULT_ATTENTION_LIMIT : Number(query.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_ATTENTION_LIMIT)
    throw invalid(`limit must be an integer from 1 to ${MAX_ATTENTION_LIMIT}`);
  return { limit };
}
