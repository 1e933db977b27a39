import { type AppLogger } from '#observability';
import { transferEvents } from '../webhooks/transfer-events.js';
import { WebhookDispatcher } from '../webhooks/webhook.dispatcher.js';
import { HostileSender } from '../webhooks/hostile.js';
import { SandboxClock } from './clock.js';
import { FaultRegistry, type LateApply } from './faults.js';
import { formatPaise, paiseFromConfig, type Paise } from './money.js';
import { RateLimiter } from './rate-limit.js';
import { type SandboxSettings } from './settings.js';
import { type SignatureKeys } from './signature.js';
import { AccountState, type TransferRecord } from './state.js';
import { TEST_BENEFICIARIES } from './test-data.js';
import { TokenIssuer } from './tokens.js';
import { TransferTokenStore } from './transfer-tokens.js';

/**
 * Everything one running sandbox holds. One account (the configured client); every store is in
 * memory and `reset()` empties it.
 */
export class SandboxWorld {
  readonly clock = new SandboxClock();
  readonly faults = new FaultRegistry();
  readonly limiter: RateLimiter;
  readonly tokens: TokenIssuer;
  readonly transferTokens: TransferTokenStore;
  /** Webhook sending: configuration, faults, the disabled flag and the attempt log. */
  readonly webhooks: WebhookDispatcher;
  /** Replays captured webhooks at a receiver (control API `/__sandbox/webhooks/hostile`). */
  readonly hostile: HostileSender;
  /** Requests held back by `applyLaterMs`, until the sandbox clock reaches their time. */
  readonly lateApplies = new Set<LateApply>();
  account: AccountState;
  /** Allow-listed source addresses; the control API may change them. */
  allowedIps: readonly string[];
  pendingDelayMs: number;
  hangMs: number;
  batchDelayMs: number;
  acknowledgeDelayMs: number;
  private closed = false;
  private credits = 0;

  constructor(
    readonly settings: SandboxSettings,
    readonly keys: SignatureKeys,
    private readonly logger?: AppLogger,
  ) {
    this.limiter = new RateLimiter(this.clock, settings.rateLimits, settings.rateWindowMs);
    this.tokens = new TokenIssuer(this.clock, settings.tokenTtlSeconds);
    this.transferTokens = new TransferTokenStore(this.clock);
    this.webhooks = new WebhookDispatcher(
      this.clock,
      settings.clientSecret,
      {
        target: settings.webhook,
        timeoutMs: settings.webhookTimeoutMs,
        retryBaseMs: settings.webhookRetryBaseMs,
        maxAttempts: settings.webhookMaxAttempts,
        lowBalanceThreshold: paiseFromConfig(settings.lowBalanceThreshold),
      },
      logger,
    );
    this.hostile = new HostileSender(
      this.webhooks,
      (id) => this.account.transfers.has(id) || this.account.internalTransfers.has(id),
    );
    this.account = this.newAccount();
    this.allowedIps = settings.allowedIps;
    this.pendingDelayMs = settings.pendingDelayMs;
    this.hangMs = settings.hangMs;
    this.batchDelayMs = settings.batchDelayMs;
    this.acknowledgeDelayMs = settings.acknowledgeDelayMs;
  }

  /** Forgets all state, tokens, faults and rate windows; the clock keeps its time. */
  reset(): void {
    this.account = this.newAccount();
    // Held requests belong to the old account: `at` drops them when their time comes.
    this.lateApplies.clear();
    this.faults.clear();
    this.limiter.reset();
    this.tokens.rotate();
    this.tokens.setTtl(this.settings.tokenTtlSeconds);
    this.transferTokens.clear();
    this.hostile.stop();
    this.webhooks.reset();
    this.allowedIps = this.settings.allowedIps;
    this.pendingDelayMs = this.settings.pendingDelayMs;
    this.hangMs = this.settings.hangMs;
    this.batchDelayMs = this.settings.batchDelayMs;
    this.acknowledgeDelayMs = this.settings.acknowledgeDelayMs;
  }

  /** Stops sending and releases every sandbox-clock wait. */
  close(): void {
    this.closed = true;
    this.hostile.close();
    this.webhooks.close();
    this.clock.releaseAll();
  }

  /** True while `account` is still the current one and the sandbox runs (for scheduled work). */
  isCurrent(account: AccountState): boolean {
    return !this.closed && account === this.account;
  }

  /**
   * Runs `work` once the sandbox clock reaches `at` (real time passing or the clock advanced),
   * unless the account was reset or the sandbox closed meanwhile.
   */
  async at(at: number, account: AccountState, work: () => void | Promise<void>): Promise<void> {
    while (this.isCurrent(account) && this.clock.now() < at) await this.clock.sleep(at - this.clock.now());
    if (!this.isCurrent(account)) return;
    try {
      await work();
    } catch (err) {
      // Nobody awaits scheduled work: report it rather than crash the process.
      this.logger?.error({ err }, 'sandbox scheduled work failed');
    }
  }

  /** The control API's balance change; a top-up is a CREDIT_CONFIRMATION (v1). */
  setBalance(balance: Paise): void {
    const before = this.account.balance;
    this.account.balance = balance;
    if (balance <= before) return;
    this.credits += 1;
    this.webhooks.emit({
      kind: 'account',
      type: 'CREDIT_CONFIRMATION',
      at: this.clock.now(),
      utr: `SBXCR${this.credits}`,
      reason: '',
      fields: { amount: formatPaise(balance - before) },
    });
  }

  /** A BENEFICIARY_INCIDENT (v1), as the provider sends when a beneficiary bank has trouble. */
  beneficiaryIncident(beneficiaryId: string, reason: string): void {
    this.webhooks.emit({
      kind: 'account',
      type: 'BENEFICIARY_INCIDENT',
      at: this.clock.now(),
      utr: '',
      reason,
      fields: { beneId: beneficiaryId },
    });
  }

  /** Every step of a transfer, once visible on the status endpoint, becomes its webhooks. */
  private watchTransfer(account: AccountState, t: TransferRecord): void {
    void (async () => {
      for (const step of t.steps) {
        await this.at(step.at, account, () => {
          // The refund is part of the change the webhook reports.
          account.settleTransfer(t);
          if (this.webhooks.target) for (const e of transferEvents(t, step)) this.webhooks.emit(e);
        });
        if (!this.isCurrent(account)) return;
      }
    })();
  }

  private lowBalance(before: Paise, after: Paise): void {
    const threshold = this.webhooks.lowBalanceThreshold;
    if (!(before >= threshold && after < threshold)) return;
    this.webhooks.emit({
      kind: 'account',
      type: 'LOW_BALANCE_ALERT',
      at: this.clock.now(),
      utr: '',
      reason: '',
      fields: { currentBalance: formatPaise(after), threshold: formatPaise(threshold) },
    });
  }

  private newAccount(): AccountState {
    const account: AccountState = new AccountState(
      this.settings.clientId,
      paiseFromConfig(this.settings.initialBalance),
      this.clock,
      {
        transferRecorded: (t) => this.watchTransfer(account, t),
        balanceChanged: (before, after) => this.lowBalance(before, after),
      },
    );
    const addedAt = this.clock.now() - 24 * 60 * 60 * 1000;
    for (const b of TEST_BENEFICIARIES) account.beneficiaries.set(b.beneId, { ...b, addedAt });
    return account;
  }
}
