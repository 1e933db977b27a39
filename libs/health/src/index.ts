export * from './health.module.js';
export * from './postgres.health.js';
export * from './kafka.health.js';
export * from './provider.health.js';
export * from './consumer.health.js';
