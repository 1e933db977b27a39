export * from './kafka.factory.js';
export * from './topic-admin.js';
export * from './kafka-batch.transport.js';
export * from './tokens.js';
export * from './consumer-lag.js';
export * from './consumer-failures.js';
export * from './reconnecting-producer.js';
export * from './java-partitioner.js';
