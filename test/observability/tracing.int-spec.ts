import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { SpanKind } from '@opentelemetry/api';
import { parseTraceparent } from '#observability';
import {
  createTracing,
  InMemorySpanExporter,
  type ReadableSpan,
} from '../../libs/observability/src/tracing-sdk.js';
import { eventually, startStack, type Stack } from '#test-support';
import { ACCOUNTS, directTransfer } from '../reconciliation/helpers.js';

// One trace per payout (ADR 0015): the command's traceparent -> consume span -> ledger spans ->
// provider call -> status check -> every event's traceparent header, read back from Kafka.
describe('tracing', () => {
  let stack: Stack;
  const exporter = new InMemorySpanExporter();
  before(async () => {
    stack = await startStack({
      tracing: createTracing({ serviceName: 'payouts-test', exporter, batch: false }),
      env: { RECONCILE_SCHEDULE: '200ms,200ms,300ms,300ms,500ms,500ms,1s' },
      sandbox: { pendingDelayMs: 1_000 },
    });
    await stack.startService();
  });
  after(async () => {
    await stack?.close();
  });

  const spansOf = (traceId: string) =>
    exporter.getFinishedSpans().filter((s) => s.spanContext().traceId === traceId);
  const named = (spans: readonly ReadableSpan[], name: string) => spans.filter((s) => s.name === name);
  const parentOf = (s: ReadableSpan) => s.parentSpanContext?.spanId;
  const eventsOf = (id: string) => stack.eventMessages.filter((m) => m.event.subject === id);

  it('a payout that went PENDING then SUCCESS is one trace, from the command to every event', async () => {
    const traceId = randomBytes(16).toString('hex');
    const upstreamSpan = randomBytes(8).toString('hex');
    await stack.send(directTransfer('tr_pok', ACCOUNTS.pendingThenSuccess), undefined, {
      traceparent: `00-${traceId}-${upstreamSpan}-01`,
    });
    await stack.waitForStatus('tr_pok', 'SUCCESS');
    const events = await eventually(() => (eventsOf('tr_pok').length === 4 ? eventsOf('tr_pok') : undefined));
    assert.deepEqual(
      events.map((m) => m.event.data.status),
      ['RECEIVED', 'SUBMITTING', 'PENDING', 'SUCCESS'],
    );

    // The stored trace: the command's trace, at our consume span.
    const [stored] = await stack.sql<{ traceparent: string }>(
      'SELECT traceparent FROM payout WHERE transfer_id = $1',
      ['tr_pok'],
    );
    assert.equal(parseTraceparent(stored?.traceparent)?.traceId, traceId);

    // Every event links back to the command.
    for (const m of events) assert.equal(m.headers['traceparent'], stored?.traceparent, m.event.id);

    // The relay's last send ends after the SUCCESS event is acknowledged: wait for its span.
    const spans = await eventually(() => {
      const s = spansOf(traceId);
      return named(s, 'send payouts.events').length >= 3 ? s : undefined;
    });
    const [consume, ...moreConsumes] = named(spans, 'process payouts.commands');
    assert.ok(consume, 'a consume span in the command trace');
    assert.equal(moreConsumes.length, 0);
    assert.equal(consume.kind, SpanKind.CONSUMER);
    assert.equal(parentOf(consume), upstreamSpan, "the consume span is the upstream producer's child");
    assert.equal(stored?.traceparent.split('-')[2], consume.spanContext().spanId);

    assert.equal(named(spans, 'ledger intake').length, 1);
    assert.equal(parentOf(named(spans, 'ledger intake')[0]!), consume.spanContext().spanId);
    assert.equal(named(spans, 'ledger claim').length, 1, 'RECEIVED -> SUBMITTING');
    const [submit] = named(spans, 'payout submit');
    assert.ok(submit, 'the executor submission joins the trace');
    const transferCall = spans.find(
      (s) => s.kind === SpanKind.CLIENT && parentOf(s) === submit.spanContext().spanId,
    );
    assert.ok(transferCall, 'the provider call is a child of the submission');
    assert.equal(transferCall.attributes['payouts.provider.outcome'], 'pending');

    const checks = named(spans, 'payout status check');
    assert.ok(checks.length >= 1, 'the reconciler status checks join the trace');
    const statusCalls = spans.filter(
      (s) => s.kind === SpanKind.CLIENT && checks.some((c) => c.spanContext().spanId === parentOf(s)),
    );
    assert.ok(statusCalls.length >= 1, 'the status call is a child of a check');
    assert.ok(statusCalls.some((s) => s.attributes['payouts.provider.outcome'] === 'success'));

    // PENDING (executor's outcome) and SUCCESS (the reconciler's move) are ledger transitions.
    const transitions = named(spans, 'ledger transition');
    assert.ok(transitions.some((s) => s.attributes['payouts.source'] === 'executor'));
    assert.ok(transitions.some((s) => s.attributes['payouts.source'] === 'reconciler'));
    for (const send of named(spans, 'send payouts.events')) assert.equal(send.kind, SpanKind.PRODUCER);

    // Log lines written inside the trace carry its ids.
    assert.ok(
      stack.logLines.some((l) => l.includes(`"traceId":"${traceId}"`) && l.includes('tr_pok')),
      'a log line with the trace id',
    );
  });

  it('a command without traceparent starts a new trace, which its events carry', async () => {
    const known = new Set(exporter.getFinishedSpans().map((s) => s.spanContext().traceId));
    await stack.send(directTransfer('tr_new', ACCOUNTS.success));
    await stack.waitForStatus('tr_new', 'SUCCESS');
    const [stored] = await stack.sql<{ traceparent: string | null }>(
      'SELECT traceparent FROM payout WHERE transfer_id = $1',
      ['tr_new'],
    );
    const traceId = parseTraceparent(stored?.traceparent)?.traceId;
    assert.ok(traceId, 'a valid traceparent is stored');
    assert.ok(!known.has(traceId), 'a trace of its own');
    const spans = await eventually(() => {
      const s = spansOf(traceId);
      return named(s, 'payout submit').length === 1 && named(s, 'send payouts.events').length >= 1
        ? s
        : undefined;
    });
    const [consume] = named(spans, 'process payouts.commands');
    assert.ok(consume);
    assert.equal(consume.parentSpanContext, undefined, 'the consume span is the root');
    const events = await eventually(() => (eventsOf('tr_new').length === 3 ? eventsOf('tr_new') : undefined));
    for (const m of events) assert.equal(m.headers['traceparent'], stored?.traceparent);
  });

  // Issue 24, finding 2: a batch's provider calls had no parent and no link.
  it("a batch's send and status checks, and their provider calls, are in its command's trace", async () => {
    const traceId = randomBytes(16).toString('hex');
    const entry = (transferId: string) => ({
      transferId,
      amount: '25.00',
      name: 'Batch Person',
      phone: '9876543210',
      ...ACCOUNTS.success,
    });
    await stack.send(
      {
        type: 'payout.batch_transfer',
        data: {
          batchTransferId: 'tr_batch',
          batchFormat: 'BANK_ACCOUNT',
          entries: [entry('trb_1'), entry('trb_2')],
        },
      },
      undefined,
      { traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-01` },
    );
    await stack.waitForStatus('tr_batch', 'COMPLETED', 30_000);
    const spans = await eventually(
      () => {
        const s = spansOf(traceId);
        return named(s, 'batch submit').length >= 1 && named(s, 'batch status check').length >= 1
          ? s
          : undefined;
      },
      { what: 'the batch spans in the command trace' },
    );
    const childCalls = (parent: ReadableSpan) =>
      spans.filter((s) => s.kind === SpanKind.CLIENT && parentOf(s) === parent.spanContext().spanId);
    const [submit] = named(spans, 'batch submit');
    assert.ok(submit && childCalls(submit).length === 1, 'the batch send is a child of its submit span');
    const checks = named(spans, 'batch status check');
    assert.ok(
      checks.some((c) => childCalls(c).length === 1),
      'a status call is a child of a batch status check',
    );
  });

  it("a query's reply carries the trace of the query: its consume span, child of the query's traceparent", async () => {
    const traceId = randomBytes(16).toString('hex');
    const upstreamSpan = randomBytes(8).toString('hex');
    await stack.query(
      { type: 'query.beneficiary', queryId: 'trace-q1', data: { beneId: 'BENE42' } },
      { traceparent: `00-${traceId}-${upstreamSpan}-01` },
    );
    const m = await eventually(() => stack.replyMessages.find((r) => r.reply.queryId === 'trace-q1'));
    const carried = parseTraceparent(m.headers['traceparent']);
    assert.equal(carried?.traceId, traceId, 'the reply is in the trace of the query');
    const consume = await eventually(() =>
      named(spansOf(traceId), 'process payouts.queries').find(
        (s) => s.spanContext().spanId === carried?.spanId,
      ),
    );
    assert.equal(parentOf(consume), upstreamSpan, "the answering span is the querier's child");
  });

  it('no secret or personal data in any span name or attribute', () => {
    const spans = exporter.getFinishedSpans();
    assert.ok(spans.length > 10);
    const forbidden = [
      ACCOUNTS.pendingThenSuccess.bankAccount,
      ACCOUNTS.success.bankAccount,
      'A Person',
      '9876543210',
      stack.sandbox.clientSecret,
      'Bearer',
    ];
    for (const s of spans) {
      const values = [s.name, ...Object.keys(s.attributes), ...Object.values(s.attributes).map(String)];
      for (const v of values)
        for (const f of forbidden) assert.ok(!v.includes(f), `span ${s.name} carries ${f}: ${v}`);
      for (const k of Object.keys(s.attributes))
        assert.doesNotMatch(k, /account|ifsc|vpa|bene|phone|email|token|secret|amount/i, `${s.name}: ${k}`);
    }
  });
});
