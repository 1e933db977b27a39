import { type AppLogger } from '#observability';
import { HostileSender } from '../webhooks/hostile.js';
import { WebhookDispatcher } from '../webhooks/webhook.dispatcher.js';
import { type SandboxClock } from './clock.js';
import { FaultRegistry, type LateApply } from './faults.js';
import { paiseFromConfig } from './money.js';
import { RateLimiter } from './rate-limit.js';
import { type MerchantSettings, type SandboxSettings } from './settings.js';
import { AccountState, type AccountListener } from './state.js';
import { TEST_BENEFICIARIES } from './test-data.js';
import { TokenIssuer } from './tokens.js';
import { TransferTokenStore } from './transfer-tokens.js';

/**
 * Everything the provider keeps per merchant: its account (transfers, batches, beneficiaries,
 * balance, withdrawals, flags), its bearer tokens, transfer tokens, faults, rate windows,
 * allow-list and webhook configuration. A transfer id is unique within one merchant only.
 */
export class Merchant {
  account: AccountState;
  readonly tokens: TokenIssuer;
  readonly transferTokens: TransferTokenStore;
  readonly faults = new FaultRegistry();
  readonly limiter: RateLimiter;
  /** Webhook sending: its own URL, version and secret (the client secret), faults and log. */
  readonly webhooks: WebhookDispatcher;
  /** Replays this merchant's captured webhooks at a receiver (control API `/webhooks/hostile`). */
  readonly hostile: HostileSender;
  /** Requests held back by `applyLaterMs`, until the sandbox clock reaches their time. */
  readonly lateApplies = new Set<LateApply>();
  /** Allow-listed source addresses; the control API may change them. */
  allowedIps: readonly string[];
  /** Top-ups so far (each CREDIT_CONFIRMATION gets its own UTR). */
  credits = 0;

  constructor(
    readonly settings: MerchantSettings,
    private readonly sandbox: SandboxSettings,
    /** Its own sandbox clock: the global one plus what `/__sandbox/clock/advance?clientId=` moved it. */
    readonly clock: SandboxClock,
    private readonly newListener: (m: Merchant, account: () => AccountState) => AccountListener,
    /** The next reference id (cf_transfer_id): unique across merchants, as at the provider. */
    private readonly newReference: () => number,
    logger?: AppLogger,
  ) {
    this.tokens = new TokenIssuer(clock, sandbox.tokenTtlSeconds);
    this.transferTokens = new TransferTokenStore(clock);
    this.limiter = new RateLimiter(clock, sandbox.rateLimits, sandbox.rateWindowMs);
    this.webhooks = new WebhookDispatcher(
      clock,
      settings.clientSecret,
      {
        target: settings.webhook,
        timeoutMs: sandbox.webhookTimeoutMs,
        retryBaseMs: sandbox.webhookRetryBaseMs,
        maxAttempts: sandbox.webhookMaxAttempts,
        lowBalanceThreshold: paiseFromConfig(sandbox.lowBalanceThreshold),
      },
      logger,
    );
    this.hostile = new HostileSender(
      this.webhooks,
      (id) => this.account.transfers.has(id) || this.account.internalTransfers.has(id),
    );
    this.account = this.newAccount();
    this.allowedIps = sandbox.allowedIps;
  }

  get clientId(): string {
    return this.settings.clientId;
  }

  get clientSecret(): string {
    return this.settings.clientSecret;
  }

  /** Forgets its state, tokens, faults, rate windows and webhook log; the clock keeps its time. */
  reset(): void {
    this.account = this.newAccount();
    // Held requests belong to the old account: `at` drops them when their time comes.
    this.lateApplies.clear();
    this.faults.clear();
    this.limiter.reset();
    this.tokens.rotate();
    this.tokens.setTtl(this.sandbox.tokenTtlSeconds);
    this.transferTokens.clear();
    this.hostile.stop();
    this.webhooks.reset();
    this.allowedIps = this.sandbox.allowedIps;
  }

  close(): void {
    this.hostile.close();
    this.webhooks.close();
  }

  private newAccount(): AccountState {
    const account: AccountState = new AccountState(
      this.settings.clientId,
      paiseFromConfig(this.settings.initialBalance ?? this.sandbox.initialBalance),
      this.clock,
      this.newListener(this, () => account),
      this.newReference,
      paiseFromConfig(this.settings.transferCharge ?? this.sandbox.transferCharge),
    );
    // The documented test beneficiaries (docs/SANDBOX.md, test data), added a day ago: payable now.
    const addedAt = this.clock.now() - 24 * 60 * 60 * 1000;
    for (const b of TEST_BENEFICIARIES) account.beneficiaries.set(b.beneId, { ...b, addedAt });
    return account;
  }
}
