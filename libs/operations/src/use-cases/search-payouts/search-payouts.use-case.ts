import { searchItemView, type SearchItemView } from '../../operations.views.js';
import { encodeCursor } from '../../search.js';
import { type OperationsPorts } from '../operations.ports.js';
import { cursorOf, searchPage } from '../shared/search-pages.js';
import { type SearchPayoutsCommand } from './search-payouts.command.js';

export interface SearchPage {
  items: SearchItemView[];
  /** Pass as `cursor` for the next page; null: this was the last one. */
  nextCursor: string | null;
}

/** One page of a search: payouts newest first, or a batch's entries in order (`batch`). */
export class SearchPayouts {
  constructor(private readonly d: Pick<OperationsPorts, 'pool' | 'search'>) {}

  async execute(s: SearchPayoutsCommand): Promise<SearchPage> {
    // One more than asked: whether there is a next page, without a count.
    const rows = await searchPage(this.d, s, s.limit + 1);
    const items = rows.slice(0, s.limit);
    const last = items[items.length - 1];
    return {
      items: items.map(searchItemView),
      nextCursor: rows.length > s.limit && last ? encodeCursor(cursorOf(last)) : null,
    };
  }
}
