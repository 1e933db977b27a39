import { type Page } from '../../dead-letters.js';

/** One row more than asked says whether there is a next page; its cursor is the last shown id. */
export function paginate<R extends { id: string }, V>(
  rows: readonly R[],
  limit: number,
  view: (r: R) => V,
): Page<V> {
  const shown = rows.slice(0, limit);
  const last = shown.at(-1);
  return { items: shown.map(view), nextCursor: rows.length > limit && last ? last.id : null };
}
