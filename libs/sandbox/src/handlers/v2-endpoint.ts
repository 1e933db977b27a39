import { type FaultSpec } from '../core/faults.js';
import { type EndpointId, type RateGroup } from '../core/settings.js';
import { type SandboxWorld } from '../core/world.js';
import { type V2Table } from '../tables/row.js';
import { failV2, V2_COMMON } from '../tables/v2-common.table.js';
import { type Obj } from './endpoint.js';

export interface V2Context {
  readonly world: SandboxWorld;
  readonly body: unknown;
  readonly query: Readonly<Record<string, unknown>>;
  /** The fault this request took, for handlers it changes (status lag on status endpoints). */
  readonly fault?: FaultSpec;
}

export interface V2Endpoint {
  readonly id: EndpointId;
  readonly method: 'GET' | 'POST' | 'DELETE';
  readonly paths: readonly string[];
  readonly group: RateGroup;
  readonly summary: string;
  /** Body fields (POST) or query parameters (GET), for the OpenAPI document. */
  readonly fields?: readonly string[];
  readonly table: V2Table;
  /** Body field naming what a money-moving call initiates; rejections are logged under it. */
  readonly initiationKey?: string;
  /**
   * For endpoints sharing a method and path (the provider serves the transfer-token payout and
   * the standard transfer on one `POST /payout/transfers`): whether this body is this endpoint's.
   * The first endpoint of a route that accepts the body answers; the last one takes the rest.
   */
  accepts?(body: unknown): boolean;
  /** HTTP status of a successful answer; 200 unless set (Create Beneficiary V2 answers 201). */
  readonly successStatus?: number;
  handle(ctx: V2Context): unknown;
}

/** A query parameter given once as a string; repeated or absent: undefined. */
export function queryString(q: Readonly<Record<string, unknown>>, key: string): string | undefined {
  const v = q[key];
  return typeof v === 'string' ? v : undefined;
}

export function decodeV2Object(body: unknown, allowed: readonly string[]): Obj {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) failV2(V2_COMMON.invalidBody);
  const o = body as Obj;
  for (const k of Object.keys(o)) if (!allowed.includes(k)) failV2(V2_COMMON.unknownField);
  return o;
}
