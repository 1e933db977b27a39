/*
 * The provider behind one door (issue 31, docs/PROVIDER-CLIENT.md): the port and its factory,
 * the configuration section the factory reads, the readiness view over the port's results, and
 * the plain types their signatures name. Nothing else leaves the lib: endpoints, adapters, outcome
 * tables, provider event names, status words and codes stay inside (.dependency-cruiser.cjs holds
 * the wall; tests use `#provider-client/testing`).
 */
export { ProviderPort } from './connector/provider.port.js';
export type {
  AccountBalance,
  ProviderAccounts,
  ProviderBeneficiaries,
  ProviderQueries,
  ProviderWebhooks,
  Routed,
  SdkTokenQuery,
} from './connector/provider.port.js';
export { createProvider, type ProviderDeps } from './connector/provider.factory.js';

export {
  providerClientConfig,
  sharedSecretProblems,
  type ProviderClientConfig,
} from './provider-client.config.js';
export { ProviderAccessState, type ProviderAccessProblem } from './provider-access-state.js';

export type {
  BatchCheck,
  BatchEntryState,
  BatchSubmitted,
  BatchToSend,
  Connectors,
  ConnectorKind,
  KindTraits,
  PayoutCheck,
  PayoutConnector,
  PayoutFound,
  PayoutRequest,
  PayoutSubmitted,
  PayoutToSend,
} from './connector/connector.port.js';
export type { Diagnostics, FailureKind, OutcomeClass, ProviderResult } from './core/outcome.js';
export type { EndpointName } from './endpoints/adapter-registry.js';
export type { CallOptions } from './provider-client.js';
export type { ResultListener } from './request-executor.js';
export type { ProviderClientLogger } from './call-recorder.js';
export type { HttpTransport } from './transport/http-transport.js';
export type { RateSlotStore, SlotGrant, SlotRequest } from './rate-budget/slot-store.js';
export type { BeneficiaryDetails, ProviderBeneficiary } from './adapters/beneficiary.js';
export type { BeneHistory, BeneHistoryRequest } from './adapters/bene-history.adapter.js';
export type { SdkToken } from './adapters/create-sdk-token.adapter.js';
export type {
  RawWebhookDelivery,
  WebhookApiVersion,
  WebhookHint,
  WebhookReader,
  WebhookReaderSettings,
  WebhookReading,
  WebhookRefusal,
} from './webhooks/webhook-reader.js';
export type { BalanceNotice, ProviderNoticeKind, WebhookMeaning } from './webhooks/webhook-meaning.js';
export type { GenerationRefusal, GenerationRule } from './generation-rules.js';
