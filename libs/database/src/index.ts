export * from './pg-pool.js';
export * from './ensure-database.js';
export * from './data-source.js';
export * from './tokens.js';
export * from './transaction.js';
export * from './probe-postgres.js';
