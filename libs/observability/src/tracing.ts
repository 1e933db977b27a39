import {
  context,
  type Context,
  type Link,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  type SpanContext,
  SpanStatusCode,
  trace,
  type Tracer,
} from '@opentelemetry/api';

/**
 * The tracing port every lib uses (ADR 0015). Libs never import @opentelemetry themselves: they
 * take a `Tracing` (NOOP_TRACING unless the app wires one) and name the traces their work belongs
 * to by W3C traceparent strings, which is also how a trace is stored with a payout and carried in
 * an event's headers. Off (the default), every call is a plain function call: no span, no context.
 */
export interface Tracing {
  readonly enabled: boolean;
  /**
   * Runs `fn` in a span. Without `parents`, a child of the active span (or a new trace). With
   * them: when they name one trace, in that trace (under the active span when it is already in
   * it, else under the named span); when they name several, a new trace with a link to each (a
   * batch); when none is valid, a new trace. Work done for payouts is never parented by whatever
   * context happened to be active (a worker loop woken from another payout's span).
   * With `parentsOf`, the span is made when `fn` has returned, from its result (a claim learns
   * which payouts it took only from its answer); it then covers fn's time but is not active in it,
   * and is not made at all when the result names no parent (an idle poll).
   */
  inSpan<T>(name: string, options: SpanOptions<T>, fn: (span: TraceSpan) => Promise<T>): Promise<T>;
  /** A span its caller ends (a Kafka batch's consume spans, ended after the commit). */
  startSpan(name: string, options: SpanOptions<never>): TraceSpan;
  /** Runs `fn` with `span` active (log lines and child spans see it). */
  withSpan<T>(span: TraceSpan, fn: () => T): T;
  /** Sends what is buffered and stops exporting. */
  shutdown(): Promise<void>;
}

export type SpanKindName = 'internal' | 'consumer' | 'producer' | 'client';
export type SpanAttributes = Readonly<Record<string, string | number | boolean>>;

export interface SpanOptions<T> {
  readonly kind?: SpanKindName;
  readonly parents?: ReadonlyArray<string | null | undefined>;
  readonly parentsOf?: (result: T) => ReadonlyArray<string | null | undefined>;
  /** Ids, names, codes and counts only: never a secret, an account number, a VPA or a name. */
  readonly attributes?: SpanAttributes;
}

export interface TraceSpan {
  /** This span's W3C traceparent; undefined when tracing is off (NOOP) or the span is invalid. */
  readonly traceparent: string | undefined;
  setAttributes(attributes: SpanAttributes): void;
  /** Marks the span failed with the error's type (its message may carry data, so it is left out). */
  fail(error: unknown): void;
  end(): void;
}

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(?:-.*)?$/;
const ZERO_TRACE = '0'.repeat(32);
const ZERO_SPAN = '0'.repeat(16);
/** A batch links to at most this many traces: the spans stay small whatever the batch size. */
export const MAX_LINKS = 128;

/** A W3C traceparent parsed, or undefined when it is not a valid one (version ff, zero ids, junk). */
export function parseTraceparent(value: string | null | undefined): SpanContext | undefined {
  if (!value || value.length > 512) return undefined;
  const m = TRACEPARENT.exec(value.trim().toLowerCase());
  if (!m) return undefined;
  const [, version, traceId, spanId, flags] = m as unknown as [string, string, string, string, string];
  if (version === 'ff' || (version === '00' && value.trim().length !== 55)) return undefined;
  if (traceId === ZERO_TRACE || spanId === ZERO_SPAN) return undefined;
  return { traceId, spanId, traceFlags: parseInt(flags, 16) & 1, isRemote: true };
}

/** The version-00 form of a span context: what is stored with a payout and sent in events. */
export function formatTraceparent(sc: SpanContext): string {
  return `00-${sc.traceId}-${sc.spanId}-0${sc.traceFlags & 1}`;
}

/** A header value as a valid traceparent (normalised), or undefined: what intake keeps with tracing off. */
export function validTraceparent(value: string | Buffer | null | undefined): string | undefined {
  const text = Buffer.isBuffer(value) ? value.toString('latin1') : value;
  const sc = parseTraceparent(text);
  return sc ? formatTraceparent(sc) : undefined;
}

const NOOP_SPAN: TraceSpan = {
  traceparent: undefined,
  setAttributes: () => undefined,
  fail: () => undefined,
  end: () => undefined,
};

/** Tracing off: no spans, no context switches. */
export const NOOP_TRACING: Tracing = {
  enabled: false,
  inSpan: (_name, _options, fn) => fn(NOOP_SPAN),
  startSpan: () => NOOP_SPAN,
  withSpan: (_span, fn) => fn(),
  shutdown: () => Promise.resolve(),
};

const KINDS: Record<SpanKindName, SpanKind> = {
  internal: SpanKind.INTERNAL,
  consumer: SpanKind.CONSUMER,
  producer: SpanKind.PRODUCER,
  client: SpanKind.CLIENT,
};

class OtelSpan implements TraceSpan {
  constructor(readonly span: Span) {}

  get traceparent(): string | undefined {
    const sc = this.span.spanContext();
    return trace.isSpanContextValid(sc) ? formatTraceparent(sc) : undefined;
  }

  setAttributes(attributes: SpanAttributes): void {
    this.span.setAttributes(attributes);
  }

  fail(error: unknown): void {
    const type = error instanceof Error ? error.name : typeof error;
    this.span.setAttribute('error.type', type);
    this.span.setStatus({ code: SpanStatusCode.ERROR, message: type });
  }

  end(): void {
    this.span.end();
  }
}

/** Where a span goes: its parent context and its links (see Tracing.inSpan). */
export function placeSpan(
  parents: ReadonlyArray<string | null | undefined> | undefined,
  active: Context = context.active(),
): { parent: Context; links: Link[] } {
  if (!parents) return { parent: active, links: [] };
  const byTrace = new Map<string, SpanContext>();
  for (const p of parents) {
    const sc = parseTraceparent(p);
    if (sc && !byTrace.has(sc.traceId)) byTrace.set(sc.traceId, sc);
  }
  if (byTrace.size === 0) return { parent: ROOT_CONTEXT, links: [] };
  if (byTrace.size === 1) {
    const [sc] = byTrace.values() as unknown as [SpanContext];
    const current = trace.getSpan(active)?.spanContext();
    if (current && current.traceId === sc.traceId) return { parent: active, links: [] };
    return { parent: trace.setSpanContext(ROOT_CONTEXT, sc), links: [] };
  }
  const links = [...byTrace.values()].slice(0, MAX_LINKS).map((sc) => ({ context: sc }));
  return { parent: ROOT_CONTEXT, links };
}

/** Tracing on: spans of the given tracer (an SDK's; see createTracing in tracing-sdk.ts). */
export class OtelTracing implements Tracing {
  readonly enabled = true;

  constructor(
    private readonly tracer: Tracer,
    private readonly onShutdown: () => Promise<void> = () => Promise.resolve(),
  ) {}

  async inSpan<T>(name: string, options: SpanOptions<T>, fn: (span: TraceSpan) => Promise<T>): Promise<T> {
    if (options.parentsOf) return this.after(name, options, options.parentsOf, fn);
    const { parent, links } = placeSpan(options.parents);
    const span = this.tracer.startSpan(
      name,
      { kind: KINDS[options.kind ?? 'internal'], attributes: options.attributes, links },
      parent,
    );
    const handle = new OtelSpan(span);
    try {
      return await context.with(trace.setSpan(parent, span), () => fn(handle));
    } catch (e) {
      handle.fail(e);
      throw e;
    } finally {
      span.end();
    }
  }

  startSpan(name: string, options: SpanOptions<never>): TraceSpan {
    const { parent, links } = placeSpan(options.parents);
    return new OtelSpan(
      this.tracer.startSpan(
        name,
        { kind: KINDS[options.kind ?? 'internal'], attributes: options.attributes, links },
        parent,
      ),
    );
  }

  withSpan<T>(span: TraceSpan, fn: () => T): T {
    if (!(span instanceof OtelSpan)) return fn();
    return context.with(trace.setSpan(context.active(), span.span), fn);
  }

  shutdown(): Promise<void> {
    return this.onShutdown();
  }

  private async after<T>(
    name: string,
    options: SpanOptions<T>,
    parentsOf: (result: T) => ReadonlyArray<string | null | undefined>,
    fn: (span: TraceSpan) => Promise<T>,
  ): Promise<T> {
    const startTime = new Date();
    const attributes: Record<string, string | number | boolean> = { ...options.attributes };
    const collect: TraceSpan = {
      traceparent: undefined,
      setAttributes: (a) => Object.assign(attributes, a),
      fail: () => undefined,
      end: () => undefined,
    };
    let result: T;
    try {
      result = await fn(collect);
    } catch (e) {
      const span = this.tracer.startSpan(name, {
        kind: KINDS[options.kind ?? 'internal'],
        startTime,
        attributes,
      });
      new OtelSpan(span).fail(e);
      span.end();
      throw e;
    }
    const parents = parentsOf(result);
    // Nothing taken (an idle poll): no span, or an idle worker would fill the exporter.
    if (parents.length === 0) return result;
    const { parent, links } = placeSpan(parents);
    this.tracer
      .startSpan(name, { kind: KINDS[options.kind ?? 'internal'], startTime, attributes, links }, parent)
      .end();
    return result;
  }
}

/** The active span's ids, for log lines (see createLogger's mixin); empty when there is none. */
export function activeTraceIds(): { traceId?: string; spanId?: string } {
  const sc = trace.getActiveSpan()?.spanContext();
  if (!sc || !trace.isSpanContextValid(sc)) return {};
  return { traceId: sc.traceId, spanId: sc.spanId };
}
