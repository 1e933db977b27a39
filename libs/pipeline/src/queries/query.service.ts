import { decodeQuery, type Query, type QueryReply, TOPICS, topicName } from '#contracts';
import { type AppLogger } from '#observability';
import { type ProviderClient, type ProviderResult } from '#provider-client';
import { Counter, type Registry } from 'prom-client';
import { type InboundMessage, type MessageProducer } from '../shared/ports.js';

export interface QueryDeps {
  /** Sends the replies. */
  producer: MessageProducer;
  client: ProviderClient;
  logger: AppLogger;
  registry: Registry;
  topicPrefix: string;
  defaultAccountId: string;
}

/**
 * Request/reply over Kafka for what is not a payout: beneficiary id lookup, beneficiary history,
 * and the video-KYC SDK token. Nothing is written to the ledger. The reply goes to the query's
 * `replyTo` (default payouts.query-replies), keyed by queryId. The SDK access token travels only
 * in the reply's data: never in a log line or a metric.
 */
export class QueryService {
  private readonly answered: Counter<'type' | 'result'>;

  constructor(private readonly d: QueryDeps) {
    this.answered = new Counter({
      name: 'payouts_queries_total',
      help: 'Queries answered, by type and result',
      labelNames: ['type', 'result'],
      registers: [d.registry],
    });
  }

  async handle(messages: readonly InboundMessage[]): Promise<void> {
    const replies = await Promise.all(messages.map((m) => this.answer(m)));
    const out = replies.filter((r): r is { topic: string; reply: QueryReply } => r !== undefined);
    if (out.length === 0) return;
    const byTopic = new Map<string, QueryReply[]>();
    for (const r of out) byTopic.set(r.topic, [...(byTopic.get(r.topic) ?? []), r.reply]);
    await this.d.producer.sendBatch({
      acks: -1,
      topicMessages: [...byTopic].map(([topic, rs]) => ({
        topic,
        messages: rs.map((r) => ({ key: r.queryId, value: JSON.stringify(r) })),
      })),
    });
  }

  private async answer(m: InboundMessage): Promise<{ topic: string; reply: QueryReply } | undefined> {
    const q = decodeQuery(m.value);
    if (!q.ok) {
      const queryId = peekQueryId(m.value);
      this.answered.inc({ type: q.type ?? 'unknown', result: 'invalid' });
      this.d.logger.warn({ reason: q.reason, detail: q.detail, queryId }, 'query refused');
      if (!queryId || !q.type) return undefined;
      return {
        topic: topicName(this.d.topicPrefix, TOPICS.queryReplies),
        reply: {
          queryId,
          type: q.type as QueryReply['type'],
          ok: false,
          error: { code: q.reason, message: q.detail },
        },
      };
    }
    const query = q.value;
    const result = await this.call(query);
    const reply: QueryReply =
      result.outcome === 'success'
        ? { queryId: query.queryId, type: query.type, ok: true, data: result.data as Record<string, unknown> }
        : {
            queryId: query.queryId,
            type: query.type,
            ok: false,
            error: {
              code: result.outcome,
              message: 'reason' in result ? result.reason : 'not available yet',
              providerCode: result.diagnostics.subCode ?? result.diagnostics.code,
            },
          };
    this.answered.inc({ type: query.type, result: reply.ok ? 'ok' : result.outcome });
    return { topic: topicName(this.d.topicPrefix, query.replyTo ?? TOPICS.queryReplies), reply };
  }

  private call(q: Query): Promise<ProviderResult<unknown>> {
    const opts = { accountId: q.accountId ?? this.d.defaultAccountId, requestId: q.requestId ?? q.queryId };
    switch (q.type) {
      case 'query.bene_id':
        return this.d.client.getBeneId({ bankAccount: q.data.bankAccount, ifsc: q.data.ifsc }, opts);
      case 'query.bene_history':
        return this.d.client.beneHistory({ ...q.data }, opts);
      case 'query.sdk_token':
        return this.d.client.createSdkToken(
          {
            appId: q.data.appId,
            product: q.data.product ?? 'VKYC',
            metadata: { vkyc_request_id: q.data.metadata.vkycRequestId },
            authenticatedUser: q.data.authenticatedUser,
          },
          opts,
        );
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
