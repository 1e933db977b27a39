export * from './operations.config.js';
export * from './operations.errors.js';
export * from './operations.views.js';
export * from './operations.service.js';
export * from './dead-letters.js';
