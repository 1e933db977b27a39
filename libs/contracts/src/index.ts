export * from './topics.js';
export * from './types.js';
export * from './decode.js';
export * from './schemas/common.schema.js';
export * from './schemas/commands.schema.js';
export * from './schemas/queries.schema.js';
export * from './schemas/events.schema.js';
