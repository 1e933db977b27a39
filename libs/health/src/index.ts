export * from './health.module.js';
export * from './postgres.health.js';
export * from './kafka.health.js';
export * from './provider.health.js';
export * from './consumer.health.js';
export * from './boot/dependency-probe.js';
export * from './boot/wait-for-dependencies.js';
export * from './boot/boot-health-server.js';
