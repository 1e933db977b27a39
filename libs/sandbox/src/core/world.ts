import { AsyncLocalStorage } from 'node:async_hooks';
import { type AppLogger } from '#observability';
import { transferEvents } from '../webhooks/transfer-events.js';
import { type WebhookDispatcher } from '../webhooks/webhook.dispatcher.js';
import { type HostileSender } from '../webhooks/hostile.js';
import { type BankCalendar } from './calendar.js';
import { SandboxClock } from './clock.js';
import { type FaultRegistry, type LateApply } from './faults.js';
import { Merchant } from './merchant.js';
import { formatPaise, type Paise } from './money.js';
import { type RateLimiter } from './rate-limit.js';
import { type MerchantSettings, type SandboxSettings } from './settings.js';
import { type SignatureKeys } from './signature.js';
import { type AccountState, type TransferRecord } from './state.js';
import { type TokenIssuer } from './tokens.js';
import { type TransferTokenStore } from './transfer-tokens.js';

/**
 * Everything one running sandbox holds: the clock, the timing settings and its merchants, each
 * with its own stores (see `Merchant`). Handlers read `account`, `faults`, `webhooks`... of the
 * current merchant: the one the request's credentials name (`runAs`, set by the route wrappers),
 * else the first (the configured client). Every store is in memory and `reset()` empties it.
 */
export class SandboxWorld {
  /** The sandbox clock every merchant's runs on; each merchant's may be moved further on its own. */
  readonly globalClock = new SandboxClock();
  /** The first is the configured client (SANDBOX_CLIENT_ID/SECRET), then SANDBOX_MERCHANTS. */
  readonly merchants: readonly Merchant[];
  pendingDelayMs: number;
  hangMs: number;
  batchDelayMs: number;
  acknowledgeDelayMs: number;
  lateReversalMs: number;
  /** Weekends and bank holidays: when "the next working day" is (docs/SANDBOX.md, "Long waits"). */
  calendar: BankCalendar;
  private readonly current = new AsyncLocalStorage<Merchant>();
  private readonly byClientId: ReadonlyMap<string, Merchant>;
  private closed = false;
  private references = 100_000;

  constructor(
    readonly settings: SandboxSettings,
    readonly keys: SignatureKeys,
    private readonly logger?: AppLogger,
  ) {
    const first: MerchantSettings = {
      clientId: settings.clientId,
      clientSecret: settings.clientSecret,
      webhook: settings.webhook,
      initialBalance: settings.initialBalance,
      transferCharge: settings.transferCharge,
    };
    this.merchants = [first, ...settings.merchants].map(
      (m) =>
        new Merchant(
          m,
          settings,
          this.globalClock.child(),
          (merchant, account) => ({
            transferRecorded: (t, from) => this.watchTransfer(merchant, account(), t, from),
            balanceChanged: (before, after) => this.lowBalance(merchant, before, after),
          }),
          () => (this.references += 1),
          logger,
        ),
    );
    this.byClientId = new Map(this.merchants.map((m) => [m.clientId, m]));
    if (this.byClientId.size !== this.merchants.length)
      throw new Error('sandbox merchants: client ids repeat');
    this.pendingDelayMs = settings.pendingDelayMs;
    this.hangMs = settings.hangMs;
    this.batchDelayMs = settings.batchDelayMs;
    this.acknowledgeDelayMs = settings.acknowledgeDelayMs;
    this.lateReversalMs = settings.lateReversalMs;
    this.calendar = { weekendDays: settings.weekendDays, holidays: settings.holidays };
  }

  /**
   * The clock of the merchant this request (or scheduled work) is for; outside any, the global one
   * (moving it moves every merchant's).
   */
  get clock(): SandboxClock {
    return this.current.getStore()?.clock ?? this.globalClock;
  }

  /** The merchant this request (or scheduled work) is for; the first outside any. */
  get merchant(): Merchant {
    return this.current.getStore() ?? this.firstMerchant;
  }

  get firstMerchant(): Merchant {
    const m = this.merchants[0];
    if (!m) throw new Error('a sandbox without merchants');
    return m;
  }

  /** The merchant with this client id, if any. */
  merchantById(clientId: string): Merchant | undefined {
    return this.byClientId.get(clientId);
  }

  /** Runs `work` for `merchant`: everything it reads through the world is that merchant's. */
  runAs<T>(merchant: Merchant, work: () => T): T {
    return this.current.run(merchant, work);
  }

  get account(): AccountState {
    return this.merchant.account;
  }
  get faults(): FaultRegistry {
    return this.merchant.faults;
  }
  get limiter(): RateLimiter {
    return this.merchant.limiter;
  }
  get tokens(): TokenIssuer {
    return this.merchant.tokens;
  }
  get transferTokens(): TransferTokenStore {
    return this.merchant.transferTokens;
  }
  get webhooks(): WebhookDispatcher {
    return this.merchant.webhooks;
  }
  get hostile(): HostileSender {
    return this.merchant.hostile;
  }
  get lateApplies(): Set<LateApply> {
    return this.merchant.lateApplies;
  }
  get allowedIps(): readonly string[] {
    return this.merchant.allowedIps;
  }
  set allowedIps(ips: readonly string[]) {
    this.merchant.allowedIps = ips;
  }

  /** Forgets every merchant's state, tokens, faults and rate windows; the clock keeps its time. */
  reset(): void {
    this.references = 100_000;
    for (const m of this.merchants) m.reset();
    this.pendingDelayMs = this.settings.pendingDelayMs;
    this.hangMs = this.settings.hangMs;
    this.batchDelayMs = this.settings.batchDelayMs;
    this.acknowledgeDelayMs = this.settings.acknowledgeDelayMs;
    this.lateReversalMs = this.settings.lateReversalMs;
    this.calendar = { weekendDays: this.settings.weekendDays, holidays: this.settings.holidays };
  }

  /** Stops sending and releases every sandbox-clock wait. */
  close(): void {
    this.closed = true;
    for (const m of this.merchants) m.close();
    this.globalClock.releaseAll();
  }

  /** The merchant whose current account this is; undefined once reset (or closed). */
  private ownerOf(account: AccountState): Merchant | undefined {
    if (this.closed) return undefined;
    return this.merchants.find((m) => m.account === account);
  }

  /** True while `account` is still a merchant's current one and the sandbox runs (for scheduled work). */
  isCurrent(account: AccountState): boolean {
    return this.ownerOf(account) !== undefined;
  }

  /**
   * Runs `work` once the sandbox clock reaches `at` (real time passing or the clock advanced),
   * unless the account was reset or the sandbox closed meanwhile.
   */
  async at(at: number, account: AccountState, work: () => void | Promise<void>): Promise<void> {
    const clock = this.ownerOf(account)?.clock ?? this.globalClock;
    while (this.isCurrent(account) && clock.now() < at) await clock.sleep(at - clock.now());
    const owner = this.ownerOf(account);
    if (!owner) return;
    try {
      await this.runAs(owner, work);
    } catch (err) {
      // Nobody awaits scheduled work: report it rather than crash the process.
      this.logger?.error({ err }, 'sandbox scheduled work failed');
    }
  }

  /** The control API's balance change (current merchant); a top-up is a CREDIT_CONFIRMATION (v1). */
  setBalance(balance: Paise): void {
    const m = this.merchant;
    const before = m.account.balance;
    m.account.balance = balance;
    if (balance <= before) return;
    m.credits += 1;
    m.webhooks.emit({
      kind: 'account',
      type: 'CREDIT_CONFIRMATION',
      at: this.clock.now(),
      utr: `SBXCR${m.credits}`,
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

  /** Every step of a transfer, once visible on the status endpoint, becomes its merchant's webhooks. */
  private watchTransfer(merchant: Merchant, account: AccountState, t: TransferRecord, from = 0): void {
    const hooks = merchant.webhooks;
    // Steps replaced later (funded, approved, rejected) are not sent: a new watcher takes over.
    const revision = t.revision ?? 0;
    const current = (): boolean => (t.revision ?? 0) === revision && this.isCurrent(account);
    void (async () => {
      for (let i = from; i < t.steps.length; i += 1) {
        const step = t.steps[i];
        if (!step) return;
        await this.at(step.at, account, () => {
          if ((t.revision ?? 0) !== revision) return;
          // The refund is part of the change the webhook reports.
          account.settleTransfer(t);
          if (hooks.target) for (const e of transferEvents(t, step)) hooks.emit(e);
        });
        if (!current()) return;
      }
    })();
  }

  private lowBalance(merchant: Merchant, before: Paise, after: Paise): void {
    const threshold = merchant.webhooks.lowBalanceThreshold;
    if (!(before >= threshold && after < threshold)) return;
    merchant.webhooks.emit({
      kind: 'account',
      type: 'LOW_BALANCE_ALERT',
      at: this.clock.now(),
      utr: '',
      reason: '',
      fields: { currentBalance: formatPaise(after), threshold: formatPaise(threshold) },
    });
  }
}
