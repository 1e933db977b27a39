export * from './database.js';
export * from './kafka.js';
export * from './service.js';
export * from './tcp-proxy.js';
export * from './broker.js';
export * from './stack.js';
export * from './fakes.js';
export * from './operators.js';
