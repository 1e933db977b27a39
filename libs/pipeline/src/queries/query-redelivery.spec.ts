import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createSecretKey } from 'node:crypto';
import { Writable } from 'node:stream';
import type pg from 'pg';
import { Registry } from 'prom-client';
import { type QueryReply } from '#contracts';
import {
  DEVELOPMENT_ENCRYPTION_KEY,
  type QueryAnswerClaim,
  type RecordedQuery,
  type SealedSecret,
  SecretsCipher,
} from '#ledger';
import { createLogger } from '#observability';
import { type ProviderBeneficiaries, type ProviderQueries } from '#provider-client';
import { type DeadLetterMessage, type MessageProducer, type OutboundTopicMessages } from '../shared/ports.js';
import { PipelineMetrics } from '../shared/pipeline.metrics.js';
import { QueryService } from './query.service.js';
import { parseReplyTopics } from './reply-topics.js';

/** The record's semantics in memory: the first claim of an id wins; `answer` fills it; `release` empties it. */
class MemoryAnswers {
  readonly rows = new Map<string, { type: string; requestHash: string; answer: SealedSecret | null }>();
  claim(_db: unknown, c: QueryAnswerClaim): Promise<RecordedQuery | undefined> {
    const k = `${c.accountId}|${c.requestId}`;
    const r = this.rows.get(k);
    if (r) return Promise.resolve(r);
    this.rows.set(k, { type: c.type, requestHash: c.requestHash, answer: null });
    return Promise.resolve(undefined);
  }
  answer(_db: unknown, accountId: string, requestId: string, answer: SealedSecret): Promise<void> {
    const r = this.rows.get(`${accountId}|${requestId}`);
    if (r) r.answer = answer;
    return Promise.resolve();
  }
  release(_db: unknown, accountId: string, requestId: string): Promise<void> {
    this.rows.delete(`${accountId}|${requestId}`);
    return Promise.resolve();
  }
  purge(): Promise<number> {
    return Promise.resolve(0);
  }
}

const silent = createLogger({
  level: 'silent',
  name: 't',
  destination: new Writable({ write: (_c, _e, cb) => cb() }),
});
const diagnostics = { endpoint: 'removeBeneficiary', requestId: 'r', sent: true, attempts: 1 } as const;

/** A service whose sends fail `failures` times first (replies and dead letters alike: Kafka is down). */
function setup(failures: number, removeOutcome: 'success' | 'retry-safe' = 'success') {
  let down = failures;
  const sent: OutboundTopicMessages[] = [];
  const dead: DeadLetterMessage[] = [];
  const removes: string[] = [];
  const answers = new MemoryAnswers();
  const producer: MessageProducer = {
    sendBatch: (b) => {
      if (down > 0) return Promise.reject(new Error('broker down'));
      sent.push(...b.topicMessages);
      return Promise.resolve();
    },
    close: () => Promise.resolve(),
  };
  const beneficiaries = {
    generationOf: () => 'v1',
    remove: (_a: string, beneId: string) => {
      removes.push(beneId);
      const result =
        removeOutcome === 'success'
          ? { outcome: 'success', data: { removed: true }, diagnostics }
          : { outcome: 'retry-safe', reason: 'rate limited', diagnostics };
      return Promise.resolve({ generation: 'v1', result });
    },
  } as unknown as ProviderBeneficiaries;
  const service = new QueryService({
    producer,
    provider: {} as ProviderQueries,
    logger: silent,
    registry: new Registry(),
    topicPrefix: 'p',
    defaultAccountId: 'acc',
    beneficiaries,
    ledgerHistory: { page: () => Promise.resolve([]) },
    replyTopics: parseReplyTopics('payouts.query-replies').topics,
    pool: {} as pg.Pool,
    answers,
    cipher: SecretsCipher.fromConfig('k1', DEVELOPMENT_ENCRYPTION_KEY, ''),
    keepAnswersMs: 60_000,
    dlq: {
      publish: (ms) => {
        if (down > 0) {
          down -= 1;
          return Promise.reject(new Error('broker down'));
        }
        dead.push(...ms);
        return Promise.resolve();
      },
    },
    deadLetters: { record: () => Promise.resolve() },
    deadLetterKey: createSecretKey(Buffer.alloc(32, 9)),
    metrics: new PipelineMetrics(new Registry()),
  });
  const replies = () => sent.flatMap((t) => t.messages.map((m) => JSON.parse(String(m.value)) as QueryReply));
  return { service, replies, removes, dead, answers };
}

const message = (offset: string, q: object) => ({ key: null, offset, value: Buffer.from(JSON.stringify(q)) });
const del = (queryId: string, extra: object = {}) => ({
  type: 'beneficiary.delete',
  queryId,
  data: { beneId: 'B1' },
  ...extra,
});

describe('a query with side effects is done once per request id (issue 30, defect 3)', () => {
  it('a batch delivered again after a failure answers from the record: the provider is called once', async () => {
    const { service, replies, removes } = setup(1);
    const batch = [message('7', del('q1'))];
    await assert.rejects(service.handle('p.payouts.queries', 0, batch), /broker down/);
    assert.deepEqual(removes, ['B1']);
    await service.handle('p.payouts.queries', 0, batch);
    assert.deepEqual(removes, ['B1'], 'not called again');
    assert.deepEqual(
      replies().map((r) => [r.queryId, r.ok, r.data?.['result']]),
      [['q1', true, 'deleted']],
    );
  });

  it('the same request id twice in one batch: one call, both answered the same', async () => {
    const { service, replies, removes } = setup(0);
    await service.handle('p.payouts.queries', 0, [
      message('1', del('q1', { requestId: 'r1' })),
      message('2', del('q2', { requestId: 'r1' })),
    ]);
    assert.deepEqual(removes, ['B1']);
    assert.deepEqual(
      replies().map((r) => [r.queryId, r.data?.['result']]),
      [
        ['q1', 'deleted'],
        ['q2', 'deleted'],
      ],
    );
  });

  it('an answer that says nothing was done is not recorded: asked again, the provider is asked again', async () => {
    const { service, replies, removes, answers } = setup(0, 'retry-safe');
    await service.handle('p.payouts.queries', 0, [message('1', del('q1', { requestId: 'r1' }))]);
    await service.handle('p.payouts.queries', 0, [message('2', del('q2', { requestId: 'r1' }))]);
    assert.deepEqual(removes, ['B1', 'B1']);
    assert.deepEqual(
      replies().map((r) => r.error?.code),
      ['unavailable', 'unavailable'],
    );
    assert.equal(answers.rows.size, 0);
  });

  it('a claim left without an answer (a crash during the call) is not called again: its outcome is unknown', async () => {
    const { service, replies, removes, answers } = setup(0);
    answers.rows.set('acc|r9', {
      type: 'beneficiary.delete',
      requestHash: SecretsCipher.fromConfig('k1', DEVELOPMENT_ENCRYPTION_KEY, '').hash(
        JSON.stringify({ accountId: 'acc', data: { beneId: 'B1' }, type: 'beneficiary.delete' }),
      ),
      answer: null,
    });
    await service.handle('p.payouts.queries', 0, [message('1', del('q1', { requestId: 'r9' }))]);
    assert.deepEqual(removes, []);
    assert.equal(replies()[0]?.error?.code, 'unknown');
    assert.match(replies()[0]?.error?.message ?? '', /new requestId/);
  });
});
