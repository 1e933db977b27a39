import { type FaultSpec } from '../core/faults.js';
import { type EndpointId, type RateGroup } from '../core/settings.js';
import { type SandboxWorld } from '../core/world.js';
import { COMMON } from '../tables/common.table.js';
import { fail, type LegacyRow, type LegacyTable } from '../tables/row.js';

export interface LegacyContext {
  readonly world: SandboxWorld;
  readonly body: unknown;
  readonly query: Readonly<Record<string, unknown>>;
  readonly params: Readonly<Record<string, string | undefined>>;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** How the caller passed the source check: allow-listed address or signature. */
  readonly source: 'ip' | 'signature';
  /** The fault this request took, for handlers it changes (status lag on status endpoints). */
  readonly fault?: FaultSpec;
}

export interface LegacyAnswer {
  readonly row: LegacyRow;
  readonly data?: unknown;
  /** Replaces the standard envelope (self withdrawal answers `statusCode`). */
  readonly raw?: Record<string, unknown>;
}

/** One legacy endpoint: its paths, its error table and its handler. */
export interface LegacyEndpoint {
  readonly id: EndpointId;
  readonly method: 'GET' | 'POST';
  readonly paths: readonly string[];
  readonly group: RateGroup;
  readonly summary: string;
  /** Body fields (POST) or query parameters (GET), for the OpenAPI document. */
  readonly fields?: readonly string[];
  readonly table: LegacyTable;
  /** Authorize takes client credentials; everything else a bearer token. */
  readonly auth: 'bearer' | 'credentials';
  /** The row a `subCode520` fault answers by default. */
  readonly row520: LegacyRow;
  /** Body field naming what a money-moving call initiates; rejections are logged under it. */
  readonly initiationKey?: string;
  handle(ctx: LegacyContext): LegacyAnswer | Promise<LegacyAnswer>;
}

export type Obj = Readonly<Record<string, unknown>>;

/** The body as an object with only `allowed` keys, or the provider-style 422. */
export function decodeObject(body: unknown, allowed: readonly string[]): Obj {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) fail(COMMON.invalidBody);
  const o = body as Obj;
  for (const k of Object.keys(o)) if (!allowed.includes(k)) fail(COMMON.unknownField);
  return o;
}

/** A string field: '' when absent or null, `undefined` when present with another type. */
export function field(o: Obj, key: string): string | undefined {
  const v = o[key];
  if (v === undefined || v === null) return '';
  return typeof v === 'string' ? v : undefined;
}

/** A query parameter as a single string ('' when absent, undefined when repeated). */
export function queryParam(q: Readonly<Record<string, unknown>>, key: string): string | undefined {
  const v = q[key];
  if (v === undefined) return '';
  return typeof v === 'string' ? v : undefined;
}
