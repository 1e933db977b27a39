import { type SearchQuery } from '../../search.js';
import { parseSearchPayouts, type SearchPayoutsCommand } from '../search-payouts/search-payouts.command.js';

/** The export reads the search page by page, this many rows at a time. */
export const EXPORT_PAGE = 500;

/** A search's filter; the page size is the export's own (a `limit` given is ignored). */
export type ExportPayoutsCommand = SearchPayoutsCommand;

/** Validated before the first row: a bad query is refused at once, not in the middle of a file. */
export function parseExportPayouts(query: SearchQuery): ExportPayoutsCommand {
  return parseSearchPayouts({ ...query, limit: String(EXPORT_PAGE) }, EXPORT_PAGE);
}
