/**
 * Error tables are data: one table per endpoint, one row per documented meaning. Handlers answer
 * by naming a row; the conformance tests walk every row. `documented: false` marks rows the
 * sandbox adds where the interface document is silent (they are not counted as documented).
 */
export type LegacyStatus = 'SUCCESS' | 'PENDING' | 'ERROR';

export interface LegacyRow {
  readonly subCode: string;
  readonly status: LegacyStatus;
  readonly message: string;
  readonly documented?: boolean;
}

export type LegacyTable<K extends string = string> = Readonly<Record<K, LegacyRow>>;

export interface V2Row {
  readonly http: number;
  readonly type: string;
  readonly code: string;
  readonly message: string;
  readonly documented?: boolean;
}

export type V2Table<K extends string = string> = Readonly<Record<K, V2Row>>;

export function isDocumented(row: { readonly documented?: boolean }): boolean {
  return row.documented !== false;
}

/**
 * HTTP status for a legacy answer (the document does not give one): 200 for SUCCESS and PENDING
 * and any 2xx subCode; the subCode itself when it is an HTTP error code; 520 stays 520 (the
 * provider's "unknown error", kept visible to HTTP-level tooling); the odd subCode 52 is 500.
 */
export function legacyHttpStatus(row: LegacyRow): number {
  const code = Number(row.subCode);
  if (row.status !== 'ERROR' || (code >= 200 && code < 300)) return 200;
  if (code >= 400 && code <= 599) return code;
  return 500;
}

/** Thrown by a handler step to answer with a row; the route wrapper renders it. */
export class RowAnswer extends Error {
  constructor(
    readonly row: LegacyRow,
    readonly data?: unknown,
  ) {
    super(row.message);
    this.name = 'RowAnswer';
  }
}

export function fail(row: LegacyRow): never {
  throw new RowAnswer(row);
}
