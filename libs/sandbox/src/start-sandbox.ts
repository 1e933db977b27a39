import { readFileSync } from 'node:fs';
import { type AddressInfo } from 'node:net';
import { createLogger, type AppLogger } from '#observability';
import { type SandboxConfig } from './core/sandbox.config.js';
import {
  DEFAULT_SETTINGS,
  type MerchantSettings,
  type RateGroup,
  type SandboxSettings,
} from './core/settings.js';
import { loadOrGenerateKeys } from './core/signature.js';
import { SandboxWorld } from './core/world.js';
import { buildServer } from './http/server.js';

export interface SandboxOptions extends Partial<Omit<SandboxSettings, 'rateLimits'>> {
  /** 0 (the default) picks a free port. */
  readonly port?: number;
  readonly host?: string;
  readonly rateLimits?: Partial<Record<RateGroup, number>>;
  readonly logger?: AppLogger;
}

export interface RunningSandbox {
  /** `http://host:port`, serving both {base_url} and {payout_url} paths. */
  readonly url: string;
  readonly port: number;
  readonly clientId: string;
  readonly clientSecret: string;
  /** PEM (SPKI) public key to build X-Svc-Signature headers with. */
  readonly publicKeyPem: string;
  /**
   * In-process access to state and the clock (tests); the HTTP control API does the same.
   * `world.webhooks` configures webhook sending and lists delivery attempts.
   */
  readonly world: SandboxWorld;
  close(): Promise<void>;
}

/** Starts a sandbox in this process. Integration tests call it with `{ port: 0 }`. */
export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  const { port = 0, host = '127.0.0.1', logger: givenLogger, rateLimits, ...rest } = options;
  const settings: SandboxSettings = {
    ...DEFAULT_SETTINGS,
    ...Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined)),
    rateLimits: { ...DEFAULT_SETTINGS.rateLimits, ...rateLimits },
  };
  const logger = givenLogger ?? createLogger({ level: 'warn', name: 'provider-sandbox' });
  const keys = await loadOrGenerateKeys(settings.privateKeyPem);
  const world = new SandboxWorld(settings, keys, logger);
  const app = buildServer(world, logger);
  await app.listen({ port, host });
  const bound = (app.server.address() as AddressInfo).port;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${shownHost}:${bound}`,
    port: bound,
    clientId: settings.clientId,
    clientSecret: settings.clientSecret,
    publicKeyPem: keys.publicKeyPem,
    world,
    async close() {
      world.close();
      await app.close();
    },
  };
}

/** Options from the environment (apps/provider-sandbox). */
export function optionsFromConfig(cfg: SandboxConfig, rawAllowedIps: string | undefined): SandboxOptions {
  const merchants: MerchantSettings[] = cfg.SANDBOX_MERCHANTS.map((m) => ({
    clientId: m.clientId,
    clientSecret: m.clientSecret,
    webhook: m.webhookUrl
      ? { url: m.webhookUrl, version: m.webhookVersion ?? cfg.SANDBOX_WEBHOOK_VERSION }
      : undefined,
    initialBalance: m.initialBalance,
    transferCharge: m.transferCharge,
  }));
  if (merchants.some((m) => m.clientId === cfg.SANDBOX_CLIENT_ID)) {
    throw new Error('SANDBOX_MERCHANTS: a merchant repeats SANDBOX_CLIENT_ID (the first merchant)');
  }
  return {
    merchants,
    clientId: cfg.SANDBOX_CLIENT_ID,
    clientSecret: cfg.SANDBOX_CLIENT_SECRET,
    // "Set empty" must mean "allow none", but the config loader treats '' as unset.
    allowedIps: rawAllowedIps === '' ? [] : cfg.SANDBOX_ALLOWED_IPS,
    privateKeyPem: cfg.SANDBOX_PRIVATE_KEY_FILE
      ? readFileSync(cfg.SANDBOX_PRIVATE_KEY_FILE, 'utf8')
      : undefined,
    tokenTtlSeconds: cfg.SANDBOX_TOKEN_TTL_SECONDS,
    signatureWindowSeconds: cfg.SANDBOX_SIGNATURE_WINDOW_SECONDS,
    pendingDelayMs: cfg.SANDBOX_PENDING_DELAY_MS,
    hangMs: cfg.SANDBOX_HANG_MS,
    batchDelayMs: cfg.SANDBOX_BATCH_DELAY_MS,
    acknowledgeDelayMs: cfg.SANDBOX_ACKNOWLEDGE_DELAY_MS,
    lateReversalMs: cfg.SANDBOX_LATE_REVERSAL_MS,
    weekendDays: cfg.SANDBOX_WEEKEND_DAYS ? cfg.SANDBOX_WEEKEND_DAYS.split(',').map(Number) : [],
    holidays: cfg.SANDBOX_HOLIDAYS ? cfg.SANDBOX_HOLIDAYS.split(',') : [],
    initialBalance: cfg.SANDBOX_INITIAL_BALANCE,
    transferCharge: cfg.SANDBOX_TRANSFER_CHARGE,
    bodyLimitBytes: cfg.SANDBOX_BODY_LIMIT_BYTES,
    rateWindowMs: cfg.SANDBOX_RATE_WINDOW_MS,
    webhook: cfg.SANDBOX_WEBHOOK_URL
      ? { url: cfg.SANDBOX_WEBHOOK_URL, version: cfg.SANDBOX_WEBHOOK_VERSION }
      : undefined,
    webhookTimeoutMs: cfg.SANDBOX_WEBHOOK_TIMEOUT_MS,
    webhookRetryBaseMs: cfg.SANDBOX_WEBHOOK_RETRY_BASE_MS,
    webhookMaxAttempts: cfg.SANDBOX_WEBHOOK_MAX_ATTEMPTS,
    lowBalanceThreshold: cfg.SANDBOX_LOW_BALANCE_THRESHOLD,
    rateLimits: {
      transfer: cfg.SANDBOX_RATE_LIMIT_TRANSFER,
      status: cfg.SANDBOX_RATE_LIMIT_STATUS,
      authorize: cfg.SANDBOX_RATE_LIMIT_AUTHORIZE,
      other: cfg.SANDBOX_RATE_LIMIT_OTHER,
    },
  };
}
