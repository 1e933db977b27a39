export * from './redact.js';
export * from './logger.js';
export * from './metrics.js';
export * from './tokens.js';
export * from './metrics.controller.js';
export * from './process-warnings.js';
export * from './tracing.js';
export * from './tracing.config.js';
