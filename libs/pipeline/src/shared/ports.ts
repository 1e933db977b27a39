import { type LedgerOutbox } from '#ledger';

/** Writes events into the transactional outbox, inside the caller's transaction. */
export type OutboxWriter = LedgerOutbox;

/** One message for the dead-letter topic. `value` is already scrubbed of secrets. */
export interface DeadLetterMessage {
  key: Buffer | null;
  value: Buffer | null;
  headers: Record<string, string>;
}

export interface DeadLetterPublisher {
  publish(messages: readonly DeadLetterMessage[]): Promise<void>;
}

/** One consumed message as a use case sees it: its bytes and its position, no transport type. */
export interface InboundMessage {
  readonly key: Buffer | null;
  readonly value: Buffer | null;
  readonly offset: string;
  /**
   * The W3C traceparent the payout is stored with (ADR 0015): the message's consume span when
   * tracing is on, else the command's own `traceparent` header when valid; undefined: none.
   */
  readonly traceparent?: string;
}

/** Messages for one topic. */
export interface OutboundTopicMessages {
  topic: string;
  messages: Array<{
    key: Buffer | string | null;
    value: Buffer | string | null;
    headers?: Record<string, string>;
  }>;
}

/**
 * Sends messages with acks from all in-sync replicas; a failed call may be repeated (at least
 * once). The messaging lib's ReconnectingProducer is the one implementation.
 */
export interface MessageProducer {
  sendBatch(batch: { acks: -1; topicMessages: OutboundTopicMessages[] }): Promise<void>;
  close(): Promise<void>;
}
