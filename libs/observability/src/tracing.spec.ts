import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '#config';
import { createTracing, InMemorySpanExporter } from './tracing-sdk.js';
import { otlpHeaders, tracesUrl, tracingConfig, tracingFromConfig } from './tracing.config.js';
import { formatTraceparent, NOOP_TRACING, parseTraceparent, validTraceparent } from './tracing.js';

const T1 = `00-${'a'.repeat(32)}-${'b'.repeat(16)}-01`;
const T2 = `00-${'c'.repeat(32)}-${'d'.repeat(16)}-01`;
const UNSAMPLED = `00-${'e'.repeat(32)}-${'f'.repeat(16)}-00`;

describe('traceparent', () => {
  it('parses the W3C form and refuses what is not one', () => {
    const sc = parseTraceparent(T1);
    assert.deepEqual(sc && { t: sc.traceId, s: sc.spanId, f: sc.traceFlags }, {
      t: 'a'.repeat(32),
      s: 'b'.repeat(16),
      f: 1,
    });
    assert.equal(formatTraceparent(sc!), T1);
    assert.equal(validTraceparent(Buffer.from(T1.toUpperCase())), T1);
    for (const bad of [
      undefined,
      '',
      'garbage',
      `00-${'0'.repeat(32)}-${'b'.repeat(16)}-01`,
      `00-${'a'.repeat(32)}-${'0'.repeat(16)}-01`,
      `ff-${'a'.repeat(32)}-${'b'.repeat(16)}-01`,
      `${T1}-extra`,
    ])
      assert.equal(parseTraceparent(bad), undefined, String(bad));
  });
});

describe('Tracing', () => {
  it('off: runs the work, makes nothing', async () => {
    assert.equal(
      await NOOP_TRACING.inSpan('x', { parents: [T1] }, (s) => Promise.resolve(s.traceparent)),
      undefined,
    );
  });

  it('one trace: a child of it; several: links; nested spans under the active one', async () => {
    const exporter = new InMemorySpanExporter();
    const tracing = createTracing({ serviceName: 't', exporter, batch: false });
    await tracing.inSpan('one', { parents: [T1, T1] }, () =>
      tracing.inSpan('inner', { parents: [T1] }, () => Promise.resolve()),
    );
    await tracing.inSpan('outer', { parents: [T1] }, async () => {
      await tracing.inSpan('many', { parents: [T1, T2, null] }, () => Promise.resolve());
      await tracing.inSpan('none', { parents: [null] }, () => Promise.resolve());
    });
    await tracing.inSpan('claim', { parentsOf: () => [] }, () => Promise.resolve());
    await tracing.inSpan('claimed', { parentsOf: (r: string[]) => r }, () => Promise.resolve([T2]));
    const kept = await tracing.inSpan('unsampled', { parents: [UNSAMPLED] }, (s) =>
      Promise.resolve(s.traceparent),
    );
    const byName = new Map(exporter.getFinishedSpans().map((s) => [s.name, s]));
    const one = byName.get('one')!;
    assert.equal(one.spanContext().traceId, 'a'.repeat(32));
    assert.equal(one.parentSpanContext?.spanId, 'b'.repeat(16));
    assert.equal(byName.get('inner')!.parentSpanContext?.spanId, one.spanContext().spanId);
    const many = byName.get('many')!;
    assert.notEqual(many.spanContext().traceId, 'a'.repeat(32), 'a new trace, not the active one');
    assert.equal(many.parentSpanContext, undefined);
    const none = byName.get('none')!;
    assert.equal(none.parentSpanContext, undefined, 'no valid parent: a new trace, not the active one');
    assert.notEqual(none.spanContext().traceId, 'a'.repeat(32));
    assert.deepEqual(
      many.links.map((l) => l.context.traceId),
      ['a'.repeat(32), 'c'.repeat(32)],
    );
    assert.equal(byName.has('claim'), false, 'an idle claim makes no span');
    assert.equal(byName.get('claimed')!.spanContext().traceId, 'c'.repeat(32));
    assert.equal(byName.has('unsampled'), false, 'the command said: not sampled');
    assert.equal(parseTraceparent(kept)?.traceId, 'e'.repeat(32));
    await tracing.shutdown();
  });
});

describe('tracing configuration', () => {
  const load = (env: Record<string, string>) => loadConfig([tracingConfig], env)[0];

  it('is off by default, OTLP with an endpoint, off again when told', async () => {
    assert.equal(tracesUrl(load({})), undefined);
    assert.equal((await tracingFromConfig(load({}))).enabled, false);
    const on = load({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' });
    assert.equal(tracesUrl(on), 'http://collector:4318/v1/traces');
    const tracing = await tracingFromConfig(on);
    assert.equal(tracing.enabled, true);
    await tracing.shutdown();
    assert.equal(
      tracesUrl(load({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://x.example/traces' })),
      'https://x.example/traces',
    );
    const offs: Array<Record<string, string>> = [
      { OTEL_TRACES_EXPORTER: 'none' },
      { OTEL_SDK_DISABLED: 'true' },
    ];
    for (const off of offs)
      assert.equal(tracesUrl(load({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', ...off })), undefined);
    assert.throws(() => load({ OTEL_TRACES_SAMPLER: 'sometimes' }));
  });

  it('reads OTLP headers as the spec writes them', () => {
    assert.deepEqual(otlpHeaders('api-key=a%20b, x=1,broken'), { 'api-key': 'a b', x: '1' });
  });
});

describe('tracing to the console or a file (no collector needed)', () => {
  const load = (env: Record<string, string>) => loadConfig([tracingConfig], env)[0];

  it('OTEL_TRACES_EXPORTER=console with OTEL_TRACES_FILE writes one JSON line per span, parents named', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'traces-'));
    const file = join(dir, 'traces.jsonl');
    try {
      const tracing = await tracingFromConfig(
        load({ OTEL_TRACES_EXPORTER: 'console', OTEL_TRACES_FILE: file, OTEL_SERVICE_NAME: 'svc-test' }),
      );
      assert.equal(tracing.enabled, true);
      await tracing.inSpan('payout submit', { attributes: { 'payouts.id': 'p1' } }, () =>
        tracing.inSpan('POST /payout/transfers', { kind: 'client' }, () => Promise.resolve()),
      );
      await tracing.shutdown();
      const spans = (await readFile(file, 'utf8'))
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      assert.equal(spans.length, 2);
      const parent = spans.find((s) => s['name'] === 'payout submit');
      const child = spans.find((s) => s['name'] === 'POST /payout/transfers');
      assert.ok(parent && child);
      assert.equal(child['traceId'], parent['traceId']);
      assert.equal(child['parentId'], parent['spanId']);
      assert.equal(child['kind'], 'client');
      assert.equal(parent['service'], 'svc-test');
      assert.deepEqual(parent['attributes'], { 'payouts.id': 'p1' });
      assert.equal(typeof parent['durationMs'], 'number');
      assert.match(String(parent['start']), /^\d{4}-\d{2}-\d{2}T/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('console without a file is on (stdout); a file with another exporter is refused at start', async () => {
    const consoleOnly = await tracingFromConfig(load({ OTEL_TRACES_EXPORTER: 'console' }));
    assert.equal(consoleOnly.enabled, true);
    await consoleOnly.shutdown();
    await assert.rejects(tracingFromConfig(load({ OTEL_TRACES_FILE: '/tmp/x.jsonl' })), /OTEL_TRACES_FILE/);
  });
});
