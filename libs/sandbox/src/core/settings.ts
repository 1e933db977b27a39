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
  | 'v2Transfer'
  | 'v2TransferStatus'
  | 'sdkToken';

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
  readonly initialBalance: string;
  /** Requests per minute per endpoint, by group; 0 disables. */
  readonly rateLimits: Readonly<Record<RateGroup, number>>;
  /** Length of the fixed rate-limit window (the provider's: a minute); shorter in tests. */
  readonly rateWindowMs: number;
  readonly bodyLimitBytes: number;
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
  initialBalance: '10000000.00',
  rateLimits: { transfer: 9000, status: 7800, authorize: 3000, other: 3000 },
  rateWindowMs: 60_000,
  bodyLimitBytes: 1024 * 1024,
};
