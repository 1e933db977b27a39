/** DI tokens of the observability context. */
export const LOGGER = Symbol('LOGGER');
export const METRICS_REGISTRY = Symbol('METRICS_REGISTRY');
export const TRACING = Symbol('TRACING');
