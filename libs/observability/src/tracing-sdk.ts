import { createWriteStream } from 'node:fs';
import { context, SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { ExportResultCode, hrTimeToMilliseconds, type ExportResult } from '@opentelemetry/core';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  ParentBasedSampler,
  type ReadableSpan,
  type Sampler,
  SimpleSpanProcessor,
  type SpanExporter,
  TraceIdRatioBasedSampler,
  TracerProvider,
} from '@opentelemetry/sdk-trace';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';
import { OtelTracing, type Tracing } from './tracing.js';

export type { SpanExporter } from '@opentelemetry/sdk-trace';
export { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace';

export interface TracingSettings {
  readonly serviceName: string;
  readonly sampler?: Sampler;
  /**
   * Where spans go. `batch: false` exports each span as it ends (tests read them at once);
   * the default batches them, as a service should.
   */
  readonly exporter: SpanExporter;
  readonly batch?: boolean;
}

let contextManagerSet = false;

/** The async-local context (which span is active across awaits); set once per process. */
function ensureContextManager(): void {
  if (contextManagerSet) return;
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  contextManagerSet = true;
}

/** Tracing with an SDK tracer provider of its own (not registered globally: nothing else traces). */
export function createTracing(settings: TracingSettings): Tracing {
  ensureContextManager();
  // A payout makes about 8 spans: at thousands of payouts a second, the default queue (2048)
  // would drop spans between two exports.
  const processor =
    settings.batch === false
      ? new SimpleSpanProcessor({ exporter: settings.exporter })
      : new BatchSpanProcessor({
          exporter: settings.exporter,
          maxQueueSize: 16_384,
          maxExportBatchSize: 1_024,
        });
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: settings.serviceName }),
    sampler: settings.sampler ?? new ParentBasedSampler({ root: new AlwaysOnSampler() }),
    spanProcessors: [processor],
  });
  return new OtelTracing(provider.getTracer('payouts'), () => provider.shutdown());
}

export type SamplerName =
  | 'parentbased_always_on'
  | 'parentbased_always_off'
  | 'parentbased_traceidratio'
  | 'always_on'
  | 'always_off'
  | 'traceidratio';

/** The sampler an OTEL_TRACES_SAMPLER value names (ratio: OTEL_TRACES_SAMPLER_ARG). */
export function samplerOf(name: SamplerName, ratio: number): Sampler {
  const byRatio = () => new TraceIdRatioBasedSampler(ratio);
  switch (name) {
    case 'always_on':
      return new AlwaysOnSampler();
    case 'always_off':
      return new AlwaysOffSampler();
    case 'traceidratio':
      return byRatio();
    case 'parentbased_always_off':
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case 'parentbased_traceidratio':
      return new ParentBasedSampler({ root: byRatio() });
    case 'parentbased_always_on':
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
  }
}

/** OTLP/HTTP to `url` (tracingFromConfig loads this module only when tracing is on). */
export function otlpTracing(o: {
  readonly serviceName: string;
  readonly sampler: SamplerName;
  readonly ratio: number;
  readonly url: string;
  readonly headers: Record<string, string>;
}): Tracing {
  return createTracing({
    serviceName: o.serviceName,
    sampler: samplerOf(o.sampler, o.ratio),
    exporter: new OTLPTraceExporter({ url: o.url, headers: o.headers }),
  });
}

const KIND_NAMES: Record<SpanKind, string> = {
  [SpanKind.INTERNAL]: 'internal',
  [SpanKind.SERVER]: 'server',
  [SpanKind.CLIENT]: 'client',
  [SpanKind.PRODUCER]: 'producer',
  [SpanKind.CONSUMER]: 'consumer',
};

/**
 * OTEL_TRACES_EXPORTER=console: one JSON object per line and span, on stdout or appended to a
 * file. The SDK's own ConsoleSpanExporter prints multi-line objects, which would break the JSON
 * lines of the log on the same stdout; this keeps every line parseable.
 */
export class JsonLinesSpanExporter implements SpanExporter {
  private readonly out: NodeJS.WritableStream;
  private readonly ownsStream: boolean;

  constructor(file?: string) {
    this.ownsStream = file !== undefined;
    this.out = file === undefined ? process.stdout : createWriteStream(file, { flags: 'a' });
  }

  export(spans: ReadableSpan[], done: (result: ExportResult) => void): void {
    const lines = spans.map((s) => {
      const ctx = s.spanContext();
      return JSON.stringify({
        otel: 'span',
        service: s.resource.attributes[ATTR_SERVICE_NAME],
        traceId: ctx.traceId,
        spanId: ctx.spanId,
        parentId: s.parentSpanContext?.spanId,
        name: s.name,
        kind: KIND_NAMES[s.kind],
        start: new Date(hrTimeToMilliseconds(s.startTime)).toISOString(),
        durationMs: Math.round(hrTimeToMilliseconds(s.duration) * 1000) / 1000,
        status: s.status.code === SpanStatusCode.ERROR ? 'error' : 'ok',
        attributes: s.attributes,
        links: s.links.length
          ? s.links.map((l) => ({ traceId: l.context.traceId, spanId: l.context.spanId }))
          : undefined,
      });
    });
    this.out.write(lines.map((l) => `${l}\n`).join(''), (err) =>
      done(err ? { code: ExportResultCode.FAILED, error: err } : { code: ExportResultCode.SUCCESS }),
    );
  }

  async shutdown(): Promise<void> {
    if (!this.ownsStream) return;
    await new Promise<void>((resolve) => this.out.end(resolve));
  }

  forceFlush(): Promise<void> {
    return Promise.resolve();
  }
}

/** OTEL_TRACES_EXPORTER=console: spans as JSON lines on stdout or in `file`. */
export function consoleTracing(o: {
  readonly serviceName: string;
  readonly sampler: SamplerName;
  readonly ratio: number;
  readonly file?: string;
}): Tracing {
  return createTracing({
    serviceName: o.serviceName,
    sampler: samplerOf(o.sampler, o.ratio),
    exporter: new JsonLinesSpanExporter(o.file),
  });
}
