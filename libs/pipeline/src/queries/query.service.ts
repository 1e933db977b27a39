import { randomUUID } from 'node:crypto';
import { decodeQuery, type Query, type QueryReply, queryReplyHeaders, TOPICS, topicName } from '#contracts';
import { type AppLogger } from '#observability';
import {
  type ApiGeneration,
  type BeneficiaryConnector,
  type ProviderClient,
  type ProviderResult,
} from '#provider-client';
import { Counter, type Registry } from 'prom-client';
import { type BeneficiaryAnswer } from './beneficiary-decisions.js';
import { type BeneHistoryReader } from './ledger-bene-history.js';
import { ManageBeneficiaries } from './manage-beneficiaries.js';
import { type BeneficiaryChangeLog } from '../shared/approval-ports.js';
import { type InboundMessage, type MessageProducer } from '../shared/ports.js';

export interface QueryDeps {
  /** Sends the replies. */
  producer: MessageProducer;
  client: ProviderClient;
  logger: AppLogger;
  registry: Registry;
  topicPrefix: string;
  defaultAccountId: string;
  /** Beneficiary calls, routed by the account's API generation. */
  beneficiaries: BeneficiaryConnector;
  /** Beneficiary history of a v2 account, from our own ledger. */
  ledgerHistory: BeneHistoryReader;
  /** A reply's time (its `ce_time` header). Default: the clock. */
  now?: () => Date;
  /** Where beneficiary creates and removes are recorded (the approval policy reads them; issue 30). */
  beneficiaryChanges?: BeneficiaryChangeLog;
}

/** One reply ready to send: where, and the query's trace (for its headers). */
interface Outgoing {
  readonly topic: string;
  readonly reply: QueryReply;
  readonly traceparent?: string;
}

/** What one message is answered with: the reply minus its queryId and type. */
type Answer = Pick<QueryReply, 'ok' | 'data' | 'error' | 'generation'> & { readonly result: string };

/**
 * Request/reply over Kafka for what is not a payout: beneficiary id lookup, beneficiary history,
 * the video-KYC SDK token, and beneficiary management (create, get, delete, by the account's API
 * generation; replies carry the beneficiary masked). Nothing is written to the ledger. The reply goes to the query's
 * `replyTo` (default payouts.query-replies), keyed by queryId. The SDK access token travels only
 * in the reply's data: never in a log line or a metric.
 */
export class QueryService {
  private readonly answered: Counter<'type' | 'result'>;
  private readonly manage: ManageBeneficiaries;

  constructor(private readonly d: QueryDeps) {
    this.manage = new ManageBeneficiaries(d.beneficiaries, d.beneficiaryChanges);
    this.answered = new Counter({
      name: 'payouts_queries_total',
      help: 'Queries answered, by type and result',
      labelNames: ['type', 'result'],
      registers: [d.registry],
    });
  }

  /**
   * Answers each message on its reply topic, keyed by queryId, with the reply headers of the
   * contract (content type, CloudEvents attributes, query-id, the query's traceparent).
   */
  async handle(messages: readonly InboundMessage[]): Promise<void> {
    const replies = await Promise.all(messages.map((m) => this.answer(m)));
    const out = replies.filter((r): r is Outgoing => r !== undefined);
    if (out.length === 0) return;
    const time = this.d.now?.() ?? new Date();
    const byTopic = new Map<string, Outgoing[]>();
    for (const r of out) byTopic.set(r.topic, [...(byTopic.get(r.topic) ?? []), r]);
    await this.d.producer.sendBatch({
      acks: -1,
      topicMessages: [...byTopic].map(([topic, rs]) => ({
        topic,
        messages: rs.map(({ reply, traceparent }) => ({
          key: reply.queryId,
          value: JSON.stringify(reply),
          headers: queryReplyHeaders(reply, { id: randomUUID(), time, traceparent }),
        })),
      })),
    });
  }

  private async answer(m: InboundMessage): Promise<Outgoing | undefined> {
    const traceparent = m.traceparent;
    const q = decodeQuery(m.value);
    if (!q.ok) {
      const queryId = peekQueryId(m.value);
      this.answered.inc({ type: q.type ?? 'unknown', result: 'invalid' });
      this.d.logger.warn({ reason: q.reason, detail: q.detail, queryId }, 'query refused');
      if (!queryId || !q.type) return undefined;
      return {
        topic: topicName(this.d.topicPrefix, TOPICS.queryReplies),
        traceparent,
        reply: {
          queryId,
          type: q.type as QueryReply['type'],
          ok: false,
          error: { code: q.reason, message: q.detail },
        },
      };
    }
    const query = q.value;
    const a = await this.call(query);
    const reply: QueryReply = {
      queryId: query.queryId,
      type: query.type,
      ok: a.ok,
      ...(a.generation ? { generation: a.generation } : {}),
      ...(a.data ? { data: a.data } : {}),
      ...(a.error ? { error: a.error } : {}),
    };
    this.answered.inc({ type: query.type, result: a.result });
    return { topic: topicName(this.d.topicPrefix, query.replyTo ?? TOPICS.queryReplies), reply, traceparent };
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
        return fromProvider(await this.d.client.beneHistory({ ...q.data }, opts), (d) => d, generation);
      case 'query.sdk_token':
        return fromProvider(
          await this.d.client.createSdkToken(
            {
              appId: q.data.appId,
              product: q.data.product ?? 'VKYC',
              metadata: { vkyc_request_id: q.data.metadata.vkycRequestId },
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

function fromProvider<D>(r: ProviderResult<D>, view: (d: D) => object, generation?: ApiGeneration): Answer {
  const g = generation ? { generation } : {};
  if (r.outcome === 'success') {
    return { ok: true, result: 'ok', ...g, data: view(r.data) as Record<string, unknown> };
  }
  const providerCode = r.diagnostics.subCode ?? r.diagnostics.code;
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
