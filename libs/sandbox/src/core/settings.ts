/**
 * The name of every endpoint the sandbox serves: the client's names (libs/provider-client,
 * `ENDPOINT_NAMES`), `verifyToken` and, until the client calls it, `getBalance`. The handler registry (handlers/registry.ts) is keyed by it,
 * so the compiler holds the two equal; every runtime list of endpoints derives from the registry.
 */
export type EndpointId =
  | 'authorize'
  | 'verifyToken'
  | 'directTransfer'
  | 'requestTransfer'
  | 'requestBatchTransfer'
  | 'getBatchTransferStatus'
  | 'internalTransfer'
  | 'selfWithdrawal'
  | 'getBeneId'
  | 'cardpay'
  | 'beneHistory'
  | 'getTransferStatus'
  | 'addBeneficiary'
  | 'getBeneficiary'
  | 'removeBeneficiary'
  | 'getBalance'
  | 'processValidatedPayout'
  | 'getTransferStatusV2'
  | 'transferV2'
  | 'batchTransferV2'
  | 'getBatchTransferStatusV2'
  | 'createBeneficiaryV2'
  | 'getBeneficiaryV2'
  | 'deleteBeneficiaryV2'
  | 'createSdkToken';

import { type WebhookTarget } from '../webhooks/webhook.types.js';

/** One merchant's credentials and dashboard settings (the first comes from SANDBOX_CLIENT_ID/SECRET). */
export interface MerchantSettings {
  readonly clientId: string;
  readonly clientSecret: string;
  /** Where its webhooks go and in which format; absent: none are sent. */
  readonly webhook?: WebhookTarget | undefined;
  /** Starting balance (INR); the sandbox's SANDBOX_INITIAL_BALANCE when absent. */
  readonly initialBalance?: string | undefined;
  /** Service charge per payout (INR); the sandbox's SANDBOX_TRANSFER_CHARGE when absent. */
  readonly transferCharge?: string | undefined;
}

export type RateGroup = 'transfer' | 'status' | 'authorize' | 'other';

/** Everything a running sandbox needs, resolved from options or the environment. */
export interface SandboxSettings {
  readonly clientId: string;
  readonly clientSecret: string;
  readonly allowedIps: readonly string[];
  /** PEM; generated at start when absent. */
  readonly privateKeyPem: string | undefined;
  readonly tokenTtlSeconds: number;
  readonly signatureWindowSeconds: number;
  readonly pendingDelayMs: number;
  readonly hangMs: number;
  readonly batchDelayMs: number;
  /**
   * v2: how long a SUCCESS stays SENT_TO_BENEFICIARY (debited, credit not yet confirmed) before
   * the beneficiary bank's confirmation makes it COMPLETED.
   */
  readonly acknowledgeDelayMs: number;
  /** The late-reversal account: REVERSED this long (sandbox clock) after its SUCCESS. */
  readonly lateReversalMs: number;
  /** Banks' weekend days (0 = Sunday) and holidays (`yyyy-mm-dd`, India days): the next working day. */
  readonly weekendDays: readonly number[];
  readonly holidays: readonly string[];
  readonly initialBalance: string;
  /**
   * The provider's service charge per payout (INR; GST of 18 % is added): taken from the balance
   * with the amount (docs/SANDBOX.md, "Balance and fees"). "0.00", the default, charges nothing.
   */
  readonly transferCharge: string;
  /** Requests per minute per endpoint, by group; 0 disables. */
  readonly rateLimits: Readonly<Record<RateGroup, number>>;
  /** Length of the fixed rate-limit window (the provider's: a minute); shorter in tests. */
  readonly rateWindowMs: number;
  readonly bodyLimitBytes: number;
  /** Where webhooks go and in which format; absent: none are sent. */
  readonly webhook: WebhookTarget | undefined;
  /** A 2xx must arrive within this (real time) for a webhook attempt to count as delivered. */
  readonly webhookTimeoutMs: number;
  /** Wait before the second attempt of a failed webhook (sandbox clock); doubles per attempt. */
  readonly webhookRetryBaseMs: number;
  /** Attempts per webhook, the first included. */
  readonly webhookMaxAttempts: number;
  /** LOW_BALANCE_ALERT (v1) when the balance falls below this amount. */
  readonly lowBalanceThreshold: string;
  /**
   * Merchants after the first (the first is `clientId`/`clientSecret` with `webhook` and
   * `initialBalance`); each with its own credentials, stores and webhook configuration.
   */
  readonly merchants: readonly MerchantSettings[];
}

export const DEFAULT_SETTINGS: SandboxSettings = {
  clientId: 'sandbox_client_id',
  clientSecret: 'sandbox_client_secret',
  allowedIps: ['127.0.0.1', '::1', '::ffff:127.0.0.1'],
  privateKeyPem: undefined,
  tokenTtlSeconds: 360,
  signatureWindowSeconds: 300,
  pendingDelayMs: 60_000,
  hangMs: 25_000,
  batchDelayMs: 5_000,
  acknowledgeDelayMs: 5_000,
  lateReversalMs: 3 * 24 * 60 * 60_000,
  weekendDays: [0, 6],
  holidays: [],
  initialBalance: '10000000.00',
  transferCharge: '0.00',
  rateLimits: { transfer: 9000, status: 7800, authorize: 3000, other: 3000 },
  rateWindowMs: 60_000,
  bodyLimitBytes: 1024 * 1024,
  webhook: undefined,
  webhookTimeoutMs: 5_000,
  webhookRetryBaseMs: 10_000,
  webhookMaxAttempts: 6,
  lowBalanceThreshold: '10000.00',
  merchants: [],
};
