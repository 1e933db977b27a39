export {
  startSandbox,
  optionsFromConfig,
  type SandboxOptions,
  type RunningSandbox,
} from './start-sandbox.js';
export { sandboxConfig, type SandboxConfig } from './core/sandbox.config.js';
export {
  DEFAULT_SETTINGS,
  type EndpointId,
  type MerchantSettings,
  type SandboxSettings,
} from './core/settings.js';
export { signClientId } from './core/signature.js';
export { type FaultSpec, seeded } from './core/faults.js';
export type { SandboxWorld } from './core/world.js';
export * from './core/test-data.js';
export { formatPaise, parseAmount } from './core/money.js';
export * from './tables/index.js';
export {
  HANDLER_REGISTRY,
  ENDPOINT_IDS,
  LEGACY_TABLES,
  V2_TABLES,
  type RegisteredHandler,
} from './handlers/registry.js';
export type {
  DeliveryAttempt,
  WebhookEventType,
  WebhookFaults,
  WebhookTarget,
  WebhookVersion,
} from './webhooks/webhook.types.js';
export type { WebhookCounts, WebhookDispatcher } from './webhooks/webhook.dispatcher.js';
