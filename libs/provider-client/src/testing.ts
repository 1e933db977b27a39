/*
 * The test door (issue 31): what the lib's own contract tests and the service's tests build on
 * (the raw client, the adapters and outcome tables, fakes' types). Production code never imports
 * it: .dependency-cruiser.cjs allows `#provider-client/testing` only from test/, *.spec.ts and scripts/.
 * Everything else uses the one door, index.ts.
 */
export * from './core/outcome.js';
export * from './core/decimal.js';
export {
  TRANSFER_STATUSES,
  transferStatusMeaning,
  type TransferStatusMeaning,
} from './core/transfer-statuses.js';
export type { Refusal } from './core/field-rules.js';
export type { EndpointAdapter, RateClass } from './core/endpoint-adapter.js';
export type { LegacyOutcomeRow, LegacyOutcomeTable } from './core/legacy-classify.js';
export type { V2OutcomeRow, V2OutcomeTable } from './core/v2-classify.js';
export * from './adapters/index.js';
export { RsaSignatureProvider, loadPublicKey, type SignatureProvider } from './auth/signature-provider.js';
export * from './metrics/provider-client-metrics.js';
export * from './metrics/prom-provider-client-metrics.js';
export type { ProviderClientLogger } from './call-recorder.js';
export type {
  HttpTransport,
  Timeouts,
  TransportOutcome,
  TransportRequest,
} from './transport/http-transport.js';
export { UndiciTransport } from './transport/http-transport.js';
export * from './provider-client.js';
export * from './provider-client.config.js';
export * from './provider-client.options.js';
export * from './provider-client.factory.js';
export type { ResultListener } from './request-executor.js';
export * from './provider-access-state.js';
export * from './rate-budget/rate-budget.js';
export * from './rate-budget/memory-rate-budget.js';
export * from './rate-budget/shared-rate-budget.js';
export * from './rate-budget/slot-store.js';
export * from './rate-budget/rate-budget.config.js';
export * from './metrics/rate-budget-metrics.js';
export * from './webhooks/webhook-reader.js';
export { parseEventTime, maskWebhookText, V1_FIELDS } from './webhooks/webhook-shape.js';
export * from './account-generation.js';
export * from './connector/beneficiary.connector.js';
export * from './connector/connector.port.js';
export * from './connector/kind-traits.js';
export * from './connector/provider.port.js';
export * from './connector/provider.factory.js';
export { V1Connector } from './connector/v1.connector.js';
export { V2Connector } from './connector/v2.connector.js';
export * from './core/status-mapping.js';
export * from './endpoints/adapter-registry.js';
export { findV2Row } from './core/v2-classify.js';
export * from './webhooks/webhook-meaning.js';
export * from './connector/provider-vocabulary.js';
export { GENERATION_RULES, generationRuleRefusing } from './generation-rules.js';
