export * from './config-section.js';
export * from './load-config.js';
export * from './core.config.js';
export * from './render-config-doc.js';
