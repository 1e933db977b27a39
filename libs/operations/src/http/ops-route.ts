import { type Operator, type OperatorAction } from '../operators.js';
import { type SearchQuery } from '../search.js';
import { type OpsTokens } from '../sign-in/ops-tokens.js';
import { type OperationsUseCases } from '../use-cases/index.js';
import { type Json } from './openapi-parts.js';

/** One call of a route, as the HTTP edge hands it over (after the guard said who and whether). */
export interface OpsCall {
  readonly who: Operator;
  /** The path's parameters, by the names in `OpsRoute.path`. */
  readonly params: Readonly<Record<string, string>>;
  readonly query: SearchQuery;
  /** The JSON body (undefined without one). */
  readonly body: unknown;
}

/** What a route's `run` works with: the use cases, the automation tokens and this document. */
export interface OpsServices {
  readonly useCases: OperationsUseCases;
  readonly tokens: OpsTokens;
  readonly openApi: () => unknown;
}

/**
 * One route of the operations API: the one place its method, path, least role, answer status,
 * inputs and output are written. The HTTP edge (apps/payout-service: its routes are made from
 * this list) and the OpenAPI document (openapi.ts) both derive from it.
 */
export interface OpsRoute {
  /** Unique: the handler's name at the edge. */
  readonly name: string;
  readonly method: 'get' | 'post' | 'delete';
  /** As OpenAPI writes it (`/ops/payouts/{accountId}/{transferId}`). */
  readonly path: `/ops${string}`;
  /** What the operator does: the least role is ACTION_ROLE[action]. */
  readonly action: OperatorAction;
  readonly summary: string;
  readonly description?: string;
  /** The path's parameters (described) and the query's. */
  readonly parameters?: readonly Json[];
  /** The JSON body: a schema of the components (the commands' own, openapi.ts). */
  readonly body?: { readonly required: boolean; readonly schema: Json };
  /** The answer: its status, and JSON (schema) or a CSV stream of lines (`csv`: the download's file name). */
  readonly answer:
    | { readonly status: 200 | 201 | 202; readonly description: string; readonly schema: Json }
    | { readonly status: 200; readonly description: string; readonly csv: string };
  /** The problem answers it may give (429 and 500 are added: openapi-parts.ts). */
  readonly errors: readonly number[];
  /** Parses the call into the use case's command and runs it (a CSV route: its lines). */
  readonly run: (s: OpsServices, c: OpsCall) => unknown;
}

/** A query parameter as the request has it (a repeated one is the parse function's to refuse). */
export const raw = (q: SearchQuery, name: string): string | undefined => q[name] as string | undefined;

/** The Nest/fastify form of an OpenAPI path: `{id}` → `:id`. */
export function routerPath(route: Pick<OpsRoute, 'path'>): string {
  return route.path.replace(/\{(\w+)\}/g, ':$1');
}
