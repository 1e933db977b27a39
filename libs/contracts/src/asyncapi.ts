import { COMMAND_EXAMPLES, EVENT_EXAMPLES, QUERY_EXAMPLES, REPLY_EXAMPLES } from './examples.js';
import { COMMAND_TYPES, commandSchemas, type CommandType } from './schemas/commands.schema.js';
import { eventSchema } from './schemas/events.schema.js';
import { querySchemas, queryReplySchema } from './schemas/queries.schema.js';
import { queryReplyHeadersSchema } from './reply-headers.js';
import { TOPICS } from './topics.js';

/**
 * The AsyncAPI 3 document, built from the very schemas the service validates with at run time.
 * `npm run contracts` writes it to docs/asyncapi.json; a test fails if the file drifts.
 */
export function buildAsyncApi(): Record<string, unknown> {
  const commandMessages = Object.fromEntries(
    Object.entries(commandSchemas).map(([type, schema]) => [
      type.replace('.', '_'),
      {
        name: type,
        contentType: 'application/json',
        summary: `Command ${type}; Kafka key = ${COMMAND_TYPES[type as CommandType]}`,
        payload: schema,
        headers: {
          type: 'object',
          properties: {
            traceparent: {
              type: 'string',
              description:
                'Optional W3C trace context of the command: the payout joins this trace, and its events carry it (a new trace when absent)',
            },
          },
        },
        examples: COMMAND_EXAMPLES.filter((c) => c.type === type).map((c) => ({ payload: c })),
      },
    ]),
  );
  const queryMessages = Object.fromEntries(
    Object.entries(querySchemas).map(([type, schema]) => [
      type.replace('.', '_'),
      {
        name: type,
        contentType: 'application/json',
        payload: schema,
        examples: QUERY_EXAMPLES.filter((q) => q.type === type).map((q) => ({ payload: q })),
      },
    ]),
  );
  const ref = (names: string[]) =>
    Object.fromEntries(names.map((n) => [n, { $ref: `#/components/messages/${n}` }]));
  return {
    asyncapi: '3.0.0',
    info: {
      title: 'Payout service',
      version: '1.0.0',
      description:
        "Commands in on payouts.commands, one event per state change out on payouts.events (CloudEvents 1.0, Kafka key = payout/<accountId>/<transferId> or batch/<accountId>/<batchTransferId>, id = <key>:<version>), queries as request/reply. Amounts are decimal strings. Compatibility (ADR 0022): a command, query or beneficiary message with a field the service does not know is refused, not ignored (dead-lettered with dlq-reason schema_violation and a dlq-detail naming the field; a query gets an error reply): roll out a new field in the service first, then in producers. Events only gain optional fields and new types: consumers must ignore what they do not know. Every pattern carries x-rule, its rule in words, as schema errors show it. The contract is the same for accounts on the provider's v1 and v2 APIs: an event's data.providerApi names the generation that carried the payout or batch, for its whole life (moving an account to v2: docs/CONFIGURATION.md).",
    },
    defaultContentType: 'application/json',
    channels: {
      commands: { address: TOPICS.commands, messages: ref(Object.keys(commandMessages)) },
      commandsDlq: {
        address: TOPICS.commandsDlq,
        description:
          "Commands that could not be decoded or validated, that name an account the service does not have or that a rule of the account's provider API generation refuses, or that the ledger database refused to store; and queries whose reply was refused or could not be sent: the original bytes (secrets redacted, account numbers, e-mail addresses and VPAs masked, ids kept whole; cut short when too large, with dlq-truncated and dlq-original-bytes) with headers dlq-reason (empty, oversized, malformed_json, not_an_object, unknown_type, schema_violation, key_mismatch, database_refused, unknown_account, api_generation_rule; for a query reply_topic_refused, reply_unsendable), dlq-detail, dlq-original-topic/partition/offset, dlq-original-hmac-sha256 (HMAC-SHA-256 of the original bytes keyed with DEAD_LETTER_DIGEST_KEY, ADR 0007), dlq-scrubbed. The Kafka key is the original key when it is the message's own id, else scrubbed.",
        messages: { deadLetter: { $ref: '#/components/messages/deadLetter' } },
      },
      events: { address: TOPICS.events, messages: { event: { $ref: '#/components/messages/event' } } },
      queries: { address: TOPICS.queries, messages: ref(Object.keys(queryMessages)) },
      queryReplies: {
        address: TOPICS.queryReplies,
        messages: { queryReply: { $ref: '#/components/messages/queryReply' } },
      },
    },
    operations: {
      sendCommand: { action: 'receive', channel: { $ref: '#/channels/commands' } },
      publishEvent: { action: 'send', channel: { $ref: '#/channels/events' } },
      deadLetter: { action: 'send', channel: { $ref: '#/channels/commandsDlq' } },
      answerQuery: {
        action: 'receive',
        channel: { $ref: '#/channels/queries' },
        reply: { channel: { $ref: '#/channels/queryReplies' } },
      },
    },
    components: {
      messages: {
        ...commandMessages,
        ...queryMessages,
        event: {
          name: 'event',
          contentType: 'application/cloudevents+json',
          summary:
            'A payout, batch or batch entry changed state (Kafka key = payout/<accountId>/<transferId or withdrawalId>, or batch/<accountId>/<batchTransferId> for a batch and its entries; id = <key>:<version>, unique, one id one content)',
          payload: eventSchema,
          headers: {
            type: 'object',
            required: ['ce_id', 'ce_type', 'content-type'],
            properties: {
              ce_id: { type: 'string', description: 'The event id' },
              ce_type: { type: 'string', description: 'The event type' },
              'content-type': { type: 'string', const: 'application/cloudevents+json' },
              traceparent: {
                type: 'string',
                pattern: '^00-[0-9a-f]{32}-[0-9a-f]{16}-0[01]$',
                description:
                  "W3C trace context of the command that caused the event (stored with its payout or batch; a conflict event carries the conflicting command's); absent when the command had none and tracing is off",
              },
            },
          },
          examples: EVENT_EXAMPLES.map((e) => ({ name: e.type, payload: e })),
        },
        queryReply: {
          name: 'queryReply',
          contentType: 'application/json',
          summary:
            'The answer to one query, on its replyTo topic (default payouts.query-replies), Kafka key = queryId; CloudEvents 1.0 binary mode: the ce_* attributes in headers, the reply as data',
          payload: queryReplySchema,
          headers: queryReplyHeadersSchema,
          examples: REPLY_EXAMPLES.map((r) => ({ payload: r })),
        },
        deadLetter: { name: 'deadLetter', payload: { description: 'The original message bytes, scrubbed' } },
      },
    },
  };
}
