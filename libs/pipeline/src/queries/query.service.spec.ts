import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createSecretKey } from 'node:crypto';
import { Writable } from 'node:stream';
import { Registry } from 'prom-client';
import { replyHeaderProblems, replyProblems, type QueryReply } from '#contracts';
import { createLogger } from '#observability';
import { type ProviderBeneficiaries, type ProviderQueries } from '#provider-client';
import type pg from 'pg';
import { type DeadLetterRepository, type QueryAnswerRepository } from '#ledger';
import {
  type DeadLetterPublisher,
  type MessageProducer,
  type OutboundTopicMessages,
} from '../shared/ports.js';
import { PipelineMetrics } from '../shared/pipeline.metrics.js';
import { type RecordedQueriesDeps } from './recorded-queries.js';
import { parseReplyTopics } from './reply-topics.js';
import { QueryService } from './query.service.js';

/** A strict fake: any member the test did not give fails the test when used. */
function strict<T extends object>(name: string, given: Partial<T> = {}): T {
  return new Proxy(given as T, {
    get(target, p) {
      if (p in target) return (target as Record<string | symbol, unknown>)[p];
      if (p === 'then') return undefined;
      throw new Error(`${name}.${String(p)} was not expected`);
    },
  });
}

const TRACE = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
const AT = new Date('2026-11-24T10:00:00.000Z');

function service(sent: OutboundTopicMessages[]): QueryService {
  const producer = strict<MessageProducer>('producer', {
    sendBatch: (b) => {
      sent.push(...b.topicMessages);
      return Promise.resolve();
    },
  });
  return new QueryService({
    producer,
    provider: strict<ProviderQueries>('provider'),
    logger: createLogger({
      level: 'silent',
      name: 't',
      destination: new Writable({ write: (_c, _e, cb) => cb() }),
    }),
    registry: new Registry(),
    topicPrefix: 'p',
    defaultAccountId: 'default',
    beneficiaries: strict<ProviderBeneficiaries>('beneficiaries', { generationOf: () => 'v2' }),
    ledgerHistory: { page: () => Promise.resolve([]) },
    replyTopics: parseReplyTopics('payouts.query-replies').topics,
    pool: strict<pg.Pool>('pool'),
    answers: strict<QueryAnswerRepository>('answers'),
    cipher: strict<RecordedQueriesDeps['cipher']>('cipher'),
    keepAnswersMs: 60_000,
    dlq: strict<DeadLetterPublisher>('dlq'),
    deadLetters: strict<Pick<DeadLetterRepository, 'record'>>('deadLetters'),
    deadLetterKey: createSecretKey(Buffer.alloc(32, 9)),
    metrics: new PipelineMetrics(new Registry()),
    now: () => AT,
  });
}

const bytes = (v: object) => Buffer.from(JSON.stringify(v));

describe('QueryService replies', () => {
  it('carry the content type, CloudEvents attributes, the query id, and the query trace when it had one', async () => {
    const sent: OutboundTopicMessages[] = [];
    await service(sent).handle('p.payouts.queries', 0, [
      {
        key: null,
        offset: '1',
        traceparent: TRACE,
        value: bytes({ type: 'query.bene_history', queryId: 'q-a', data: { beneId: 'B1' } }),
      },
      // Refused by the schema: answered all the same, with the same headers and no trace.
      { key: null, offset: '2', value: bytes({ type: 'query.beneficiary', queryId: 'q-b', data: {} }) },
      // A field this service does not know: refused with the field named, not ignored (ADR 0022).
      {
        key: null,
        offset: '3',
        value: bytes({
          type: 'query.bene_history',
          queryId: 'q-c',
          data: { beneId: 'B1', onlyFailed: true },
        }),
      },
    ]);
    assert.deepEqual(
      sent.map((t) => t.topic),
      ['p.payouts.query-replies'],
    );
    const [a, b, c] = sent[0]?.messages ?? [];
    assert.ok(a && b && c);
    const refused = JSON.parse(String(c.value)) as QueryReply;
    assert.equal(refused.ok, false);
    assert.equal(refused.error?.code, 'schema_violation');
    assert.match(
      refused.error?.message ?? '',
      /\/data has unknown field onlyFailed; unknown fields are refused/,
    );
    const replyA = JSON.parse(String(a.value)) as QueryReply;
    assert.equal(replyProblems(replyA), undefined);
    assert.equal(a.key, 'q-a');
    assert.equal(replyHeaderProblems(a.headers), undefined, JSON.stringify(a.headers));
    assert.deepEqual(
      { ...a.headers, ce_id: 'x' },
      {
        'content-type': 'application/json',
        ce_specversion: '1.0',
        ce_id: 'x',
        ce_type: 'payouts.reply.query.bene_history',
        ce_source: 'urn:payouts:payout-service',
        ce_time: '2026-11-24T10:00:00.000Z',
        ce_subject: 'q-a',
        'query-id': 'q-a',
        traceparent: TRACE,
      },
    );
    assert.equal(replyHeaderProblems(b.headers), undefined);
    assert.equal(b.headers?.['query-id'], 'q-b');
    assert.equal(b.headers?.['ce_type'], 'payouts.reply.query.beneficiary');
    assert.equal(b.headers?.['traceparent'], undefined);
    assert.notEqual(a.headers?.['ce_id'], b.headers?.['ce_id'], 'one id per reply');
    assert.match(a.headers?.['ce_id'] ?? '', /^[0-9a-f-]{36}$/);
  });
});
