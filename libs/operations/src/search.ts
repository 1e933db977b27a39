import { OperationsError, OperationsErrorCode } from './operations.errors.js';
import { type SearchItemView } from './operations.views.js';

/** The largest page of a search or a list of proposals. */
export const MAX_PAGE = 500;

/** A search as the API receives it: strings, all optional (a repeated parameter is refused). */
export type SearchQuery = Readonly<Record<string, string | readonly string[] | undefined>>;

/** Where a page ended: a payout's (createdAt, id), a batch entry's (batchId, position), or an id (proposals). */
export type Cursor =
  | { readonly createdAt: string; readonly id: string }
  | { readonly batchId: string; readonly position: number }
  | { readonly id: string };

/** Postgres's text of a timestamptz (ISO style), as the search query writes it. */
const PG_TIME = /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}(\.\d{1,6})?([+-]\d{2}(:\d{2})?|Z)$/;
const ID = /^\d{1,19}$/;

const invalid = (message: string) => new OperationsError(OperationsErrorCode.InvalidInput, message);

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
  'subState',
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
    subState: v.subState,
    beneId: b.beneId,
    bankAccount: b.bankAccount,
    ifsc: b.ifsc,
    vpa: b.vpa,
    createdAt: v.createdAt,
    updatedAt: v.updatedAt,
  };
  return `${CSV_COLUMNS.map((c) => csvCell(cells[c])).join(',')}\r\n`;
}
