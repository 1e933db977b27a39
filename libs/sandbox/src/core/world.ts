import { SandboxClock } from './clock.js';
import { FaultRegistry } from './faults.js';
import { paiseFromConfig } from './money.js';
import { RateLimiter } from './rate-limit.js';
import { type SandboxSettings } from './settings.js';
import { type SignatureKeys } from './signature.js';
import { AccountState } from './state.js';
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
  account: AccountState;
  /** Allow-listed source addresses; the control API may change them. */
  allowedIps: readonly string[];
  pendingDelayMs: number;
  hangMs: number;
  batchDelayMs: number;

  constructor(
    readonly settings: SandboxSettings,
    readonly keys: SignatureKeys,
  ) {
    this.limiter = new RateLimiter(this.clock, settings.rateLimits, settings.rateWindowMs);
    this.tokens = new TokenIssuer(this.clock, settings.tokenTtlSeconds);
    this.transferTokens = new TransferTokenStore(this.clock);
    this.account = this.newAccount();
    this.allowedIps = settings.allowedIps;
    this.pendingDelayMs = settings.pendingDelayMs;
    this.hangMs = settings.hangMs;
    this.batchDelayMs = settings.batchDelayMs;
  }

  /** Forgets all state, tokens, faults and rate windows; the clock keeps its time. */
  reset(): void {
    this.account = this.newAccount();
    this.faults.clear();
    this.limiter.reset();
    this.tokens.rotate();
    this.tokens.setTtl(this.settings.tokenTtlSeconds);
    this.transferTokens.clear();
    this.allowedIps = this.settings.allowedIps;
    this.pendingDelayMs = this.settings.pendingDelayMs;
    this.hangMs = this.settings.hangMs;
    this.batchDelayMs = this.settings.batchDelayMs;
  }

  private newAccount(): AccountState {
    return new AccountState(
      this.settings.clientId,
      paiseFromConfig(this.settings.initialBalance),
      this.clock,
    );
  }
}
