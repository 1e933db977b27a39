import { searchItemView, type SearchItemView } from '../../operations.views.js';
import { type OperationsPorts } from '../operations.ports.js';
import { cursorOf, searchPage } from '../shared/search-pages.js';
import { type ExportPayoutsCommand } from './export-payouts.command.js';

/**
 * Every row of a search, page by page (keyset: no duplicates, no snapshot held open), for a
 * streamed export.
 */
export class ExportPayouts {
  constructor(private readonly d: Pick<OperationsPorts, 'pool' | 'search'>) {}

  async *execute(first: ExportPayoutsCommand): AsyncGenerator<SearchItemView> {
    let s = first;
    for (;;) {
      const rows = await searchPage(this.d, s, s.limit);
      for (const r of rows) yield searchItemView(r);
      const last = rows[rows.length - 1];
      if (rows.length < s.limit || !last) return;
      s = { ...s, cursor: cursorOf(last) };
    }
  }
}
