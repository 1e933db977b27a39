import { PAYOUT_KINDS_LIST, PAYOUT_STATUSES_LIST } from './vocabulary.js';
import { OperationsError, OperationsErrorCode } from './operations.errors.js';
import { type PayoutFilter } from './search.repository.js';
import { type SearchItemView } from './operations.views.js';

export const DEFAULT_PAGE = 50;
export const MAX_PAGE = 500;

/** A search as the API receives it: strings, all optional (a repeated parameter is refused). */
export type SearchQuery = Readonly<Record<string, string | readonly string[] | undefined>>;

export interface ParsedSearch {
  readonly filter: PayoutFilter;
  /** Set: the entries of the batches with this batchTransferId. */
  readonly batch?: string;
  readonly limit: number;
  readonly cursor: Cursor | null;
}

/** Where a page ended: a payout's (createdAt, id), a batch entry's (batchId, position), or an id (proposals). */
export type Cursor =
  | { readonly createdAt: string; readonly id: string }
  | { readonly batchId: string; readonly position: number }
  | { readonly id: string };

/** Postgres's text of a timestamptz (ISO style), as the search query writes it. */
const PG_TIME = /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}(\.\d{1,6})?([+-]\d{2}(:\d{2})?|Z)$/;
const ID = /^\d{1,19}$/;

const invalid = (message: string) => new OperationsError(OperationsErrorCode.InvalidInput, message);

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

export function encodeCursor(c: Cursor): string {
  return Buffer.from(JSON.stringify(c)).toString('base64url');
}

export function decodeCursor(v: string | undefined): Cursor | null {
  if (v === undefined || v === '') return null;
  try {
    const c = JSON.parse(Buffer.from(v, 'base64url').toString('utf8')) as Record<string, unknown>;
    const id = typeof c['id'] === 'string' && ID.test(c['id']) ? c['id'] : undefined;
    if (id && typeof c['createdAt'] === 'string' && PG_TIME.test(c['createdAt']))
      return { createdAt: c['createdAt'], id };
    if (id && Object.keys(c).length === 1) return { id };
    if (typeof c['batchId'] === 'string' && ID.test(c['batchId']) && Number.isInteger(c['position']))
      return { batchId: c['batchId'], position: c['position'] as number };
  } catch {
    // falls through
  }
  throw invalid('cursor is not one this API returned');
}

/** Validates a search: unknown statuses or kinds, bad dates, limits out of range are refused. */
export function parseSearch(query: SearchQuery, defaultLimit = DEFAULT_PAGE): ParsedSearch {
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
    ...(accountId ? { accountId } : {}),
    ...(from ? { from } : {}),
    ...(to ? { to } : {}),
    ...(utr ? { utr } : {}),
    ...(transferIdPrefix ? { transferIdPrefix } : {}),
  };
  return { filter, limit, cursor, ...(batch ? { batch } : {}) };
}

/** Export columns, in order. Masked values only (the beneficiary as every view shows it). */
export const CSV_COLUMNS = [
  'accountId',
  'transferId',
  'batchTransferId',
  'kind',
  'status',
  'version',
  'amount',
  'utr',
  'referenceId',
  'reason',
  'beneId',
  'bankAccount',
  'ifsc',
  'vpa',
  'createdAt',
  'updatedAt',
] as const;

/**
 * One CSV cell: always quoted, quotes doubled; a value a spreadsheet would run as a formula
 * (starting with = + - @, a tab or a carriage return) is prefixed with a quote (OWASP's advice).
 */
export function csvCell(v: string | number | null | undefined): string {
  if (v === null || v === undefined) return '';
  let s = String(v);
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return `"${s.replace(/"/g, '""')}"`;
}

export function csvHeader(): string {
  return `${CSV_COLUMNS.join(',')}\r\n`;
}

export function csvLine(v: SearchItemView): string {
  const b = v.beneficiary ?? {};
  const cells: Record<(typeof CSV_COLUMNS)[number], string | number | null | undefined> = {
    accountId: v.accountId,
    transferId: v.transferId,
    batchTransferId: v.batchTransferId,
    kind: v.kind,
    status: v.status,
    version: v.version,
    amount: v.amount,
    utr: v.utr,
    referenceId: v.referenceId,
    reason: v.reason,
    beneId: b.beneId,
    bankAccount: b.bankAccount,
    ifsc: b.ifsc,
    vpa: b.vpa,
    createdAt: v.createdAt,
    updatedAt: v.updatedAt,
  };
  return `${CSV_COLUMNS.map((c) => csvCell(cells[c])).join(',')}\r\n`;
}
