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
export * from './generation-rules.js';
export * from './beneficiaries/beneficiary-connector.js';
export * from './connector/index.js';
