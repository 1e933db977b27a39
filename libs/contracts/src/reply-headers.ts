import { RULE } from './schemas/common.schema.js';
import { type QueryReply } from './types.js';

/** CloudEvents `source` of everything the service publishes: events and query replies. */
export const SERVICE_SOURCE = 'urn:payouts:payout-service';

/** `ce_type` of a reply: the query's type after this prefix (`payouts.reply.query.bene_id`). */
export const REPLY_TYPE_PREFIX = 'payouts.reply.';

/**
 * The Kafka headers of a query reply: CloudEvents 1.0 binary mode (the `ce_*` attributes in
 * headers, the reply JSON as the data), as events carry `ce_id` and `ce_type`, so one consumer
 * library routes both; `query-id` for the requester's correlation without parsing the value; and
 * the trace of the query when it had one (W3C `traceparent`). Never anything from `data`: an SDK
 * token travels only in the value.
 */
export function queryReplyHeaders(
  reply: Pick<QueryReply, 'queryId' | 'type'>,
  at: { readonly id: string; readonly time: Date; readonly traceparent?: string },
): Record<string, string> {
  return {
    'content-type': 'application/json',
    ce_specversion: '1.0',
    ce_id: at.id,
    ce_type: `${REPLY_TYPE_PREFIX}${reply.type}`,
    ce_source: SERVICE_SOURCE,
    ce_time: at.time.toISOString(),
    ce_subject: reply.queryId,
    'query-id': reply.queryId,
    ...(at.traceparent ? { traceparent: at.traceparent } : {}),
  };
}

/** The headers above as a schema: in the AsyncAPI document, and what the tests check replies against. */
export const queryReplyHeadersSchema = {
  type: 'object',
  required: [
    'content-type',
    'ce_specversion',
    'ce_id',
    'ce_type',
    'ce_source',
    'ce_time',
    'ce_subject',
    'query-id',
  ],
  properties: {
    'content-type': { const: 'application/json' },
    ce_specversion: { const: '1.0' },
    ce_id: { type: 'string', minLength: 1, description: 'Unique per reply (a UUID)' },
    ce_type: {
      type: 'string',
      pattern: '^payouts\\.reply\\.(query|beneficiary)\\.[a-z_]+$',
      [RULE]: 'payouts.reply. followed by the query type',
      description: 'payouts.reply.<query type>, e.g. payouts.reply.query.bene_id',
    },
    ce_source: { const: SERVICE_SOURCE },
    ce_time: {
      type: 'string',
      format: 'date-time',
      [RULE]: 'an RFC 3339 date-time with a zone',
      description: 'When the reply was produced',
    },
    ce_subject: { type: 'string', minLength: 1, description: 'The queryId' },
    'query-id': { type: 'string', minLength: 1, description: 'The queryId (also the Kafka key)' },
    traceparent: {
      type: 'string',
      pattern: '^00-[0-9a-f]{32}-[0-9a-f]{16}-0[01]$',
      [RULE]: 'a W3C traceparent: 00-<32 hex>-<16 hex>-<flags>',
      description:
        "W3C trace context: the query's consume span when tracing is on, else the query's own valid traceparent header; absent when the query had none and tracing is off",
    },
  },
} as const;
