/** DI tokens of the messaging context. */
export const KAFKA = Symbol('KAFKA');
export const KAFKA_TOPIC_PREFIX = Symbol('KAFKA_TOPIC_PREFIX');
