import { type Classified } from './outcome.js';
import { type Refusal } from './field-rules.js';
import { type HttpAnswer } from './http-answer.js';

/** Which bucket of the provider's per-account limits an endpoint draws from. */
export type RateClass = 'transfer' | 'status' | 'authorize' | 'balance' | 'default';

/** What goes on the wire, minus host and auth headers (the executor adds those). */
export interface BuiltRequest {
  readonly query?: Readonly<Record<string, string>>;
  /** Values for `:name` segments of the adapter's path (encoded when sent; the metrics label keeps the template). */
  readonly pathParams?: Readonly<Record<string, string>>;
  /** JSON text, built with writeJson so amounts never pass through a float. */
  readonly body?: string;
}

/**
 * Everything the client needs to know about one endpoint. The adapter is pure: it validates,
 * builds and classifies; transport, auth, rate limits and retries live in the executor.
 */
export interface EndpointAdapter<Req, D> {
  /** Its key in the registry (endpoints/adapter-registry.ts; the spec checks they agree). */
  readonly name: string;
  readonly method: 'GET' | 'POST' | 'DELETE';
  readonly path: string;
  /** `base` = {base_url} (v2, verification); `payout` = {payout_url} (legacy). */
  readonly host: 'base' | 'payout';
  /** `bearer`: legacy token; `client-headers`: v2 id/secret/version; `client-credentials`: authorize. */
  readonly auth: 'bearer' | 'client-headers' | 'client-credentials';
  readonly rateClass: RateClass;
  /**
   * The provider counts this endpoint's calls under another adapter's name (the same method and
   * path, e.g. two bodies of `POST /payout/transfers`): they share one rate budget.
   */
  readonly rateKey?: string;
  validate(req: Req): Refusal | undefined;
  /** Secret values in the request, scrubbed from any provider message that echoes them. */
  secrets?(req: Req): readonly (string | undefined)[];
  build(req: Req): BuiltRequest;
  classify(answer: HttpAnswer): Classified<D>;
}

/** The path with its `:name` segments filled in, each value URL-encoded. */
export function concretePath(template: string, params: Readonly<Record<string, string>> = {}): string {
  return template.replace(/:([A-Za-z]+)/g, (_m, name: string) => encodeURIComponent(params[name] ?? ''));
}

/** The metrics label for an endpoint: a template, never a concrete URL with ids in it. */
export function endpointTemplate(a: { readonly method: string; readonly path: string }): string {
  return `${a.method} ${a.path}`;
}
