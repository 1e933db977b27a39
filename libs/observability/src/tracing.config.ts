import { z } from 'zod';
import { defineSection, env, envVar, type SectionValues } from '#config';
import { NOOP_TRACING, type Tracing } from './tracing.js';

/**
 * The OpenTelemetry variables this service reads (the standard names; ADR 0015). Tracing is off
 * unless an OTLP endpoint is given: no SDK is loaded, spans cost one function call.
 */
export const tracingConfig = defineSection('tracing', {
  OTEL_EXPORTER_OTLP_ENDPOINT: envVar({
    schema: z.literal('').or(env.url(['http', 'https'])),
    default: '',
    description:
      'OTLP/HTTP collector base URL (e.g. http://otel-collector:4318); traces go to <url>/v1/traces. Empty: tracing off (the default)',
  }),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: envVar({
    schema: z.literal('').or(env.url(['http', 'https'])),
    default: '',
    description:
      'Full OTLP/HTTP traces URL, used as it is; overrides OTEL_EXPORTER_OTLP_ENDPOINT (and turns tracing on)',
  }),
  OTEL_EXPORTER_OTLP_HEADERS: envVar({
    schema: z.string(),
    default: '',
    description: 'Headers sent to the collector, `key=value` pairs separated by commas (e.g. an API key)',
    sensitive: true,
  }),
  OTEL_TRACES_EXPORTER: envVar({
    schema: env.enumOf(['otlp', 'console', 'none']),
    default: 'otlp',
    description:
      "'otlp': to the OTLP endpoint (tracing is off without one); 'console': one JSON line per span on stdout, or in OTEL_TRACES_FILE (no collector needed); 'none': off even with an endpoint set",
  }),
  OTEL_TRACES_FILE: envVar({
    schema: z.string(),
    default: '',
    description:
      "With OTEL_TRACES_EXPORTER=console: append the spans' JSON lines to this file instead of stdout (e.g. to read one payout's trace)",
  }),
  OTEL_SDK_DISABLED: envVar({
    schema: env.boolean(),
    default: 'false',
    description: 'true: tracing off whatever else is set',
  }),
  OTEL_SERVICE_NAME: envVar({
    schema: env.string(),
    default: 'payout-service',
    description: "The traces' service.name",
  }),
  OTEL_TRACES_SAMPLER: envVar({
    schema: env.enumOf([
      'parentbased_always_on',
      'parentbased_always_off',
      'parentbased_traceidratio',
      'always_on',
      'always_off',
      'traceidratio',
    ]),
    default: 'parentbased_always_on',
    description:
      "Which traces are recorded; 'parentbased_*' follow the sampled flag of the command's traceparent",
  }),
  OTEL_TRACES_SAMPLER_ARG: envVar({
    schema: z.coerce.number().min(0).max(1),
    default: '1',
    description: 'The ratio of the traceidratio samplers (0 to 1)',
  }),
});

export type TracingConfig = SectionValues<typeof tracingConfig.vars>;

/** The traces URL when tracing is on, or undefined (off). */
export function tracesUrl(c: TracingConfig): string | undefined {
  if (c.OTEL_SDK_DISABLED || c.OTEL_TRACES_EXPORTER === 'none') return undefined;
  if (c.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) return c.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
  if (c.OTEL_EXPORTER_OTLP_ENDPOINT) return `${c.OTEL_EXPORTER_OTLP_ENDPOINT.replace(/\/+$/, '')}/v1/traces`;
  return undefined;
}

/** `k1=v1,k2=v2` (values URL-encoded, as the OTel spec says) as a header map; a malformed pair is skipped. */
export function otlpHeaders(raw: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of raw.split(',')) {
    const at = pair.indexOf('=');
    if (at <= 0) continue;
    const key = pair.slice(0, at).trim();
    const value = pair.slice(at + 1).trim();
    try {
      out[key] = decodeURIComponent(value);
    } catch {
      out[key] = value;
    }
  }
  return out;
}

/**
 * From the configuration: JSON lines with `console`, OTLP/HTTP when an endpoint is set, else
 * NOOP_TRACING. The SDK is loaded
 * only then: a service with tracing off does not even import it.
 */
export async function tracingFromConfig(c: TracingConfig): Promise<Tracing> {
  if (c.OTEL_TRACES_FILE && c.OTEL_TRACES_EXPORTER !== 'console')
    throw new Error(
      `OTEL_TRACES_FILE is set but OTEL_TRACES_EXPORTER is '${c.OTEL_TRACES_EXPORTER}': spans go to the file only with OTEL_TRACES_EXPORTER=console`,
    );
  if (c.OTEL_SDK_DISABLED) return NOOP_TRACING;
  if (c.OTEL_TRACES_EXPORTER === 'console') {
    const { consoleTracing } = await import('./tracing-sdk.js');
    return consoleTracing({
      serviceName: c.OTEL_SERVICE_NAME,
      sampler: c.OTEL_TRACES_SAMPLER,
      ratio: c.OTEL_TRACES_SAMPLER_ARG,
      file: c.OTEL_TRACES_FILE || undefined,
    });
  }
  const url = tracesUrl(c);
  if (!url) return NOOP_TRACING;
  const { otlpTracing } = await import('./tracing-sdk.js');
  return otlpTracing({
    serviceName: c.OTEL_SERVICE_NAME,
    sampler: c.OTEL_TRACES_SAMPLER,
    ratio: c.OTEL_TRACES_SAMPLER_ARG,
    url,
    headers: otlpHeaders(c.OTEL_EXPORTER_OTLP_HEADERS),
  });
}
