import { PROVIDER_SUB_STATES } from '#contracts';
import { PAYOUT_KINDS_LIST, PAYOUT_STATUSES_LIST } from '../../vocabulary.js';
import { type PayoutFilter } from '../../search.repository.js';
import { type Cursor, decodeCursor, MAX_PAGE, type SearchQuery } from '../../search.js';
import { invalid } from '../shared/refusals.js';

export const DEFAULT_PAGE = 50;

/** A validated search: its filter, page size and where the previous page ended. */
export interface SearchPayoutsCommand {
  readonly filter: PayoutFilter;
  /** Set: the entries of the batches with this batchTransferId. */
  readonly batch?: string;
  readonly limit: number;
  readonly cursor: Cursor | null;
}

const TEXT = /^[\x21-\x7e]{1,128}$/;

function list(v: string | undefined, allowed: readonly string[], name: string): string[] | undefined {
  if (v === undefined || v === '') return undefined;
  const items = v.split(',').map((s) => s.trim());
  for (const i of items)
    if (!allowed.includes(i)) throw invalid(`${name}: unknown value ${JSON.stringify(i)}`);
  return items;
}

function date(v: string | undefined, name: string): Date | undefined {
  if (v === undefined || v === '') return undefined;
  const d = new Date(v);
  if (!/^\d{4}-\d{2}-\d{2}/.test(v) || Number.isNaN(d.getTime()))
    throw invalid(`${name} must be an ISO 8601 date or timestamp`);
  return d;
}

function text(v: string | undefined, name: string): string | undefined {
  if (v === undefined || v === '') return undefined;
  if (!TEXT.test(v)) throw invalid(`${name} must be 1 to 128 printable characters`);
  return v;
}

/** Validates a search: unknown statuses or kinds, bad dates, limits out of range are refused. */
export function parseSearchPayouts(query: SearchQuery, defaultLimit = DEFAULT_PAGE): SearchPayoutsCommand {
  const q: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(query)) {
    if (typeof v !== 'string' && v !== undefined) throw invalid(`${k} is given more than once`);
    q[k] = v;
  }
  const limit = q['limit'] === undefined || q['limit'] === '' ? defaultLimit : Number(q['limit']);
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE)
    throw invalid(`limit must be an integer from 1 to ${MAX_PAGE}`);
  const from = date(q['from'], 'from');
  const to = date(q['to'], 'to');
  if (from && to && from >= to) throw invalid('from must be before to');
  const statuses = list(q['status'], PAYOUT_STATUSES_LIST, 'status');
  const kinds = list(q['kind'], PAYOUT_KINDS_LIST, 'kind');
  const subStates = list(q['subState'], PROVIDER_SUB_STATES, 'subState');
  const accountId = text(q['account'], 'account');
  const utr = text(q['utr'], 'utr');
  const transferIdPrefix = text(q['transferIdPrefix'], 'transferIdPrefix');
  const batch = text(q['batch'], 'batch');
  const cursor = decodeCursor(q['cursor']);
  if (cursor && ('createdAt' in cursor ? batch !== undefined : !('batchId' in cursor && batch !== undefined)))
    throw invalid('cursor belongs to another kind of search');
  const filter: PayoutFilter = {
    ...(statuses ? { statuses } : {}),
    ...(kinds ? { kinds } : {}),
    ...(subStates ? { subStates } : {}),
    ...(accountId ? { accountId } : {}),
    ...(from ? { from } : {}),
    ...(to ? { to } : {}),
    ...(utr ? { utr } : {}),
    ...(transferIdPrefix ? { transferIdPrefix } : {}),
  };
  return { filter, limit, cursor, ...(batch ? { batch } : {}) };
}
