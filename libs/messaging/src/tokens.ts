/** DI tokens of the messaging context. */
export const KAFKA = Symbol('KAFKA');
export const KAFKA_TOPIC_PREFIX = Symbol('KAFKA_TOPIC_PREFIX');
/** The process's ConsumerFailures (see consumer-failures.ts), shared by the transport, readiness and metrics. */
export const CONSUMER_FAILURES = Symbol('CONSUMER_FAILURES');
