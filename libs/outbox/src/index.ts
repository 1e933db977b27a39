export * from './outbox.types.js';
export * from './outbox.config.js';
export * from './outbox.repository.js';
export * from './outbox.metrics.js';
export * from './outbox-listener.js';
export * from './outbox-publisher.js';
export * from './outbox-relay.js';
export { OutboxListener, type OutboxListenerOptions } from './outbox-listener.js';
