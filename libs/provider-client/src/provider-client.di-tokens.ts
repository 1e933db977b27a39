/** DI tokens of the provider-client context. */
export const PROVIDER_CLIENT = Symbol('PROVIDER_CLIENT');
export const PROVIDER_CLIENT_OPTIONS = Symbol('PROVIDER_CLIENT_OPTIONS');
export const PROVIDER_CLIENT_METRICS = Symbol('PROVIDER_CLIENT_METRICS');
