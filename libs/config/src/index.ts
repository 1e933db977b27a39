export * from './config-section.js';
export * from './load-config.js';
export * from './core.config.js';
export * from './render-config-doc.js';
export * from './deployment.config.js';
export * from './development-defaults.js';
export * from './exit-codes.js';
