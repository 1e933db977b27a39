import { type KeyObject, randomUUID } from 'node:crypto';
import type pg from 'pg';
import { type DeadLetterRepository, type QueryAnswerRepository } from '#ledger';
import { type AppLogger } from '#observability';
import {
  decodeQuery,
  type ProviderApi,
  type Query,
  type QueryReply,
  queryReplyHeaders,
  TOPICS,
  topicName,
} from '#contracts';
import { type ProviderBeneficiaries, type ProviderQueries, type ProviderResult } from '#provider-client';
import { Counter, type Registry } from 'prom-client';
import { type BeneficiaryAnswer } from './beneficiary-decisions.js';
import { type BeneHistoryReader } from './ledger-bene-history.js';
import { ManageBeneficiaries } from './manage-beneficiaries.js';
import { type BeneficiaryChangeLog } from '../shared/approval-ports.js';
import { deadLetterOf, deadLetterRecordOf, type DeadLetterCause } from '../shared/dead-letter.js';
import { type PipelineMetrics } from '../shared/pipeline.metrics.js';
import { type DeadLetterPublisher, type InboundMessage, type MessageProducer } from '../shared/ports.js';
import {
  type Answer,
  QUERIES_WITH_SIDE_EFFECTS,
  RecordedQueries,
  type RecordedQueriesDeps,
} from './recorded-queries.js';
import { replyTopicRefusal, type ReplyTopics } from './reply-topics.js';

export interface QueryDeps {
  /** Sends the replies. */
  producer: MessageProducer;
  /** The provider's queries (the port's): beneficiary history, the SDK token. */
  provider: ProviderQueries;
  logger: AppLogger;
  registry: Registry;
  topicPrefix: string;
  defaultAccountId: string;
  /** Beneficiary calls, routed by the account's API generation. */
  beneficiaries: ProviderBeneficiaries;
  /** Beneficiary history of a v2 account, from our own ledger. */
  ledgerHistory: BeneHistoryReader;
  /** Where a reply may go (QUERY_REPLY_TOPICS); never the service's own topics. */
  replyTopics: ReplyTopics;
  /** The record of queries with side effects, and the dead letters' mirror rows. */
  pool: pg.Pool;
  answers: QueryAnswerRepository;
  cipher: RecordedQueriesDeps['cipher'];
  /** How long a recorded answer is kept (QUERY_ANSWERS_KEEP_MS). */
  keepAnswersMs: number;
  /** Queries whose reply is refused or cannot be sent: to the dead-letter topic, and mirrored. */
  dlq: DeadLetterPublisher;
  deadLetters: Pick<DeadLetterRepository, 'record'>;
  /** DEAD_LETTER_DIGEST_KEY (ADR 0007). */
  deadLetterKey: KeyObject;
  /** Dead letters are counted with the commands' (payouts_commands_dead_lettered_total): one topic, one alert. */
  metrics: Pick<PipelineMetrics, 'deadLettered'>;
  /** A reply's time (its `ce_time` header). Default: the clock. */
  now?: () => Date;
  /** Where beneficiary creates and removes are recorded (the approval policy reads them; issue 30). */
  beneficiaryChanges?: BeneficiaryChangeLog;
}

/** One reply ready to send: where, and the query's trace (for its headers). */
interface Outgoing {
  readonly m: InboundMessage;
  readonly topic: string;
  readonly reply: QueryReply;
  readonly traceparent?: string;
}

/** What became of one message: a reply to send, or a dead letter (`type`, `result`: its metric labels). */
type Handled = ({ readonly reply: Outgoing } | { readonly dead: DeadLetterCause }) & {
  readonly type: string;
  readonly result: string;
};

/** A query is at most a few kB (its schema); its dead letter is cut well below a produce request. */
const MAX_QUERY_DEAD_LETTER_BYTES = 64 * 1024;

/** Recorded answers older than QUERY_ANSWERS_KEEP_MS are deleted at most this often, this many at a time. */
const PURGE_EVERY_MS = 10 * 60_000;
const PURGE_LIMIT = 1_000;

/**
 * Request/reply over Kafka for what is not a payout: beneficiary id lookup, beneficiary history,
 * the video-KYC SDK token, and beneficiary management (create, get, delete, by the account's API
 * generation; replies carry the beneficiary masked). The reply goes to the query's `replyTo`
 * (default payouts.query-replies) when QUERY_REPLY_TOPICS allows it, keyed by queryId; a query
 * naming any other topic is dead-lettered before anything is asked of the provider, and a reply
 * that cannot be sent is dead-lettered too: the batch is committed, never redelivered for it. A
 * query with side effects (create, delete, SDK token) is done once per request id
 * (RecordedQueries): a repeat gets the recorded answer. The SDK access token travels only in
 * the reply's data (sealed in the record): never in a log line, a metric or a dead letter.
 */
export class QueryService {
  private readonly answered: Counter<'type' | 'result'>;
  private readonly manage: ManageBeneficiaries;
  private readonly recorded: RecordedQueries;
  private lastPurge = 0;

  constructor(private readonly d: QueryDeps) {
    this.manage = new ManageBeneficiaries(d.beneficiaries, d.beneficiaryChanges);
    this.recorded = new RecordedQueries({ pool: d.pool, answers: d.answers, cipher: d.cipher });
    this.answered = new Counter({
      name: 'payouts_queries_total',
      help: 'Queries by type and result: answered (ok or an error code), invalid, or dead-lettered (reply_topic_refused, reply_unsendable)',
      labelNames: ['type', 'result'],
      registers: [d.registry],
    });
  }

  /**
   * Answers each message on its reply topic, keyed by queryId, with the reply headers of the
   * contract (content type, CloudEvents attributes, query-id, the query's traceparent). Throws
   * only when a dead letter cannot be written either (Kafka or Postgres down): the batch is then
   * delivered again, and the queries with side effects answer from their record.
   */
  async handle(topic: string, partition: number, messages: readonly InboundMessage[]): Promise<void> {
    const handled = await Promise.all(messages.map((m) => this.answer(m)));
    const dead: DeadLetterCause[] = [];
    const out: Outgoing[] = [];
    for (const h of handled) {
      if (!h) continue;
      if ('dead' in h) dead.push(h.dead);
      else out.push(h.reply);
    }
    const unsent = await this.send(out);
    dead.push(...unsent);
    if (dead.length > 0) {
      await this.d.dlq.publish(
        dead.map((x) =>
          deadLetterOf(topic, partition, x, {
            maxValueBytes: MAX_QUERY_DEAD_LETTER_BYTES,
            digestKey: this.d.deadLetterKey,
          }),
        ),
      );
      await this.d.deadLetters.record(
        this.d.pool,
        dead.map((x) => deadLetterRecordOf(topic, partition, x)),
      );
      for (const x of dead) this.d.metrics.deadLettered.inc({ reason: x.reason });
      this.d.logger.warn(
        { topic, partition, count: dead.length, reasons: [...new Set(dead.map((x) => x.reason))] },
        'queries dead-lettered',
      );
    }
    const failed = new Set(unsent.map((x) => x.m));
    for (const h of handled) {
      if (!h) continue;
      const result = 'reply' in h && failed.has(h.reply.m) ? 'reply_unsendable' : h.result;
      this.answered.inc({ type: h.type, result });
    }
    await this.purge();
  }

  /**
   * Each reply topic in its own request, one after another (a failed send replaces the producer):
   * a topic that cannot take its replies (missing, refused by the broker) holds back only its
   * own, which come back as dead letters.
   */
  private async send(out: readonly Outgoing[]): Promise<DeadLetterCause[]> {
    if (out.length === 0) return [];
    const time = this.d.now?.() ?? new Date();
    const byTopic = new Map<string, Outgoing[]>();
    for (const r of out) byTopic.set(r.topic, [...(byTopic.get(r.topic) ?? []), r]);
    const unsent: DeadLetterCause[] = [];
    for (const [topic, rs] of byTopic) {
      try {
        await this.d.producer.sendBatch({
          acks: -1,
          topicMessages: [
            {
              topic,
              messages: rs.map(({ reply, traceparent }) => ({
                key: reply.queryId,
                value: JSON.stringify(reply),
                headers: queryReplyHeaders(reply, { id: randomUUID(), time, traceparent }),
              })),
            },
          ],
        });
      } catch (e) {
        const why = e instanceof Error ? `${e.name}: ${e.message}` : 'the send failed';
        this.d.logger.warn({ topic, count: rs.length, err: e }, 'query replies could not be sent');
        for (const r of rs) {
          unsent.push({
            m: r.m,
            reason: 'reply_unsendable',
            detail: `the reply could not be sent to ${topic} (${why.slice(0, 300)}); the answer is recorded for its request id where the query has side effects: ask again`,
            type: r.reply.type,
          });
        }
      }
    }
    return unsent;
  }

  private async answer(m: InboundMessage): Promise<Handled | undefined> {
    const traceparent = m.traceparent;
    const q = decodeQuery(m.value);
    if (!q.ok) {
      const queryId = peekQueryId(m.value);
      const type = q.type ?? 'unknown';
      this.d.logger.warn({ reason: q.reason, detail: q.detail, queryId }, 'query refused');
      if (!queryId || !q.type) {
        this.answered.inc({ type, result: 'invalid' });
        return undefined;
      }
      const reply: QueryReply = {
        queryId,
        type: q.type as QueryReply['type'],
        ok: false,
        error: { code: q.reason, message: q.detail },
      };
      const topic = topicName(this.d.topicPrefix, TOPICS.queryReplies);
      return { type, result: 'invalid', reply: { m, topic, reply, traceparent } };
    }
    const query = q.value;
    const replyTo = query.replyTo ?? TOPICS.queryReplies;
    const refused = replyTopicRefusal(this.d.replyTopics, replyTo, this.d.topicPrefix);
    if (refused !== undefined) {
      // Refused before anything is asked of the provider: an answer nobody may read changes nothing.
      const dead = { m, reason: 'reply_topic_refused', detail: refused, type: query.type };
      return { type: query.type, result: 'reply_topic_refused', dead };
    }
    const a = await this.callOnce(query);
    const reply: QueryReply = {
      queryId: query.queryId,
      type: query.type,
      ok: a.ok,
      ...(a.generation ? { generation: a.generation } : {}),
      ...(a.data ? { data: a.data } : {}),
      ...(a.error ? { error: a.error } : {}),
    };
    const topic = topicName(this.d.topicPrefix, replyTo);
    return { type: query.type, result: a.result, reply: { m, topic, reply, traceparent } };
  }

  /** A query with side effects once per request id; the others (reads) as asked. */
  private callOnce(q: Query): Promise<Answer> {
    if (!QUERIES_WITH_SIDE_EFFECTS.has(q.type)) return this.call(q);
    const accountId = q.accountId ?? this.d.defaultAccountId;
    return this.recorded.once(q, accountId, q.requestId ?? q.queryId, () => this.call(q));
  }

  private async purge(): Promise<void> {
    const now = this.d.now?.() ?? new Date();
    if (now.getTime() - this.lastPurge < PURGE_EVERY_MS) return;
    this.lastPurge = now.getTime();
    try {
      const before = new Date(now.getTime() - this.d.keepAnswersMs);
      await this.d.answers.purge(this.d.pool, before, PURGE_LIMIT);
    } catch (e) {
      // Old records wait for the next round; the replies are sent.
      this.d.logger.warn({ err: e }, 'recorded query answers could not be purged');
    }
  }

  private async call(q: Query): Promise<Answer> {
    const accountId = q.accountId ?? this.d.defaultAccountId;
    const requestId = q.requestId ?? q.queryId;
    const opts = { accountId, requestId };
    const generation = this.d.beneficiaries.generationOf(accountId);
    switch (q.type) {
      case 'query.bene_id': {
        const r = await this.d.beneficiaries.findByAccount(
          accountId,
          q.data.bankAccount,
          q.data.ifsc,
          requestId,
        );
        return fromProvider(r.result, (b) => ({ beneId: b.beneId }), r.generation);
      }
      case 'query.bene_history':
        if (generation === 'v2') {
          const transfers = await this.d.ledgerHistory.page(accountId, q.data);
          return { ok: true, result: 'ok', generation, data: { transfers } };
        }
        return fromProvider(await this.d.provider.beneHistory({ ...q.data }, opts), (d) => d, generation);
      case 'query.sdk_token':
        return fromProvider(
          await this.d.provider.sdkToken(
            {
              appId: q.data.appId,
              product: q.data.product,
              vkycRequestId: q.data.metadata.vkycRequestId,
              authenticatedUser: q.data.authenticatedUser,
            },
            opts,
          ),
          (d) => d,
        );
      case 'query.beneficiary':
        return fromBeneficiary(await this.manage.get(accountId, q.data.beneId, requestId));
      case 'beneficiary.create':
        return fromBeneficiary(await this.manage.create(accountId, q.data, requestId));
      case 'beneficiary.delete':
        return fromBeneficiary(await this.manage.remove(accountId, q.data.beneId, requestId));
    }
  }

  async close(): Promise<void> {
    await this.d.producer.close();
  }
}

function peekQueryId(v: Buffer | null): string | undefined {
  try {
    const o = JSON.parse(v?.toString('utf8') ?? '') as { queryId?: unknown };
    return typeof o.queryId === 'string' && o.queryId.length <= 128 ? o.queryId : undefined;
  } catch {
    return undefined;
  }
}

function fromProvider<D>(r: ProviderResult<D>, view: (d: D) => object, generation?: ProviderApi): Answer {
  const g = generation ? { generation } : {};
  if (r.outcome === 'success') {
    return { ok: true, result: 'ok', ...g, data: view(r.data) as Record<string, unknown> };
  }
  const providerCode = r.diagnostics.evidence;
  return {
    ok: false,
    result: r.outcome,
    ...g,
    error: {
      code: r.outcome,
      message: 'reason' in r ? r.reason : 'not available yet',
      ...(providerCode === undefined ? {} : { providerCode }),
    },
  };
}

function fromBeneficiary(a: BeneficiaryAnswer): Answer {
  if (a.ok) {
    const data = { result: a.result, ...(a.beneficiary ? { beneficiary: a.beneficiary } : {}) };
    return { ok: true, result: 'ok', generation: a.generation, data };
  }
  const error = {
    code: a.code,
    message: a.message,
    ...(a.providerCode === undefined ? {} : { providerCode: a.providerCode }),
  };
  return { ok: false, result: a.code, generation: a.generation, error };
}
