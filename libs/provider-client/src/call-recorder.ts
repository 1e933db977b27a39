import { endpointTemplate, type EndpointAdapter } from './core/endpoint-adapter.js';
import { type Classified, type ProviderResult } from './core/outcome.js';
import { scrub } from './core/scrub.js';
import { type ProviderClientMetrics } from './metrics/provider-client-metrics.js';

/** The logging port: pino's Logger fits. Only outcomes and scrubbed diagnostics are logged. */
export interface ProviderClientLogger {
  debug(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface CallState {
  readonly requestId: string;
  readonly startedAt: number;
  attempts: number;
  sent: boolean;
  /** An earlier attempt of this call got an answer and was then re-sent (Diagnostics). */
  earlierAttemptMayHaveReached?: true;
  /** Values cut out of any provider message before it reaches diagnostics or a log line. */
  secrets: (string | undefined)[];
}

export function reasonOf<D>(r: ProviderResult<D>): string | undefined {
  switch (r.outcome) {
    case 'success':
    case 'pending':
      return undefined;
    case 'failed':
    case 'unknown':
    case 'retry-safe':
    case 'auth-refresh':
    case 'fatal-config':
      return r.reason;
  }
}

/** Turns a classification into the caller's result, and records it in metrics and logs. */
export function recordResult<Req, D>(
  adapter: EndpointAdapter<Req, D>,
  st: CallState,
  c: Classified<D>,
  durationMs: number,
  deps: { readonly metrics: ProviderClientMetrics; readonly logger?: ProviderClientLogger },
): ProviderResult<D> {
  const { wire, ...rest } = c;
  const facts = Object.fromEntries(
    Object.entries({ ...wire, message: scrub(wire.message, st.secrets) }).filter(([, v]) => v !== undefined),
  );
  // One code for the service to keep as evidence, whichever field this generation sends it in.
  const evidence = wire.subCode ?? wire.code;
  const diagnostics = {
    endpoint: adapter.name,
    requestId: st.requestId,
    sent: st.sent,
    attempts: st.attempts,
    ...(st.earlierAttemptMayHaveReached ? { earlierAttemptMayHaveReached: true as const } : {}),
    durationMs,
    ...facts,
    ...(evidence === undefined ? {} : { evidence }),
  };
  const result = { ...rest, diagnostics } as ProviderResult<D>;
  deps.metrics.observeRequest(endpointTemplate(adapter), result.outcome, durationMs / 1000);
  const l = deps.logger;
  if (l) {
    // Never the data: it can hold an SDK token or personal details.
    const entry = { outcome: result.outcome, reason: reasonOf(result), provider: diagnostics };
    if (result.outcome === 'fatal-config') l.error(entry, 'provider call: configuration problem');
    else if (result.outcome === 'unknown') l.warn(entry, 'provider call: outcome unknown');
    else l.debug(entry, 'provider call');
  }
  return result;
}
