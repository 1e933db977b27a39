import { randomBytes } from 'node:crypto';
import { type SandboxClock } from './clock.js';

export interface TransferToken {
  readonly token: string;
  readonly transferId: string;
  readonly vpa: string;
  readonly issuedAt: number;
  used: boolean;
}

export const TRANSFER_TOKEN_TTL_MS = 60 * 60 * 1000;

/** v2 transfer tokens as Validate Payout would issue them: single use, one hour. */
export class TransferTokenStore {
  private readonly tokens = new Map<string, TransferToken>();

  constructor(private readonly clock: SandboxClock) {}

  issue(transferId: string, vpa: string): TransferToken {
    const t: TransferToken = {
      token: `ttk_${randomBytes(18).toString('base64url')}`,
      transferId,
      vpa,
      issuedAt: this.clock.now(),
      used: false,
    };
    this.tokens.set(t.token, t);
    return t;
  }

  find(token: string): TransferToken | undefined {
    return this.tokens.get(token);
  }

  isExpired(t: TransferToken): boolean {
    return this.clock.now() - t.issuedAt >= TRANSFER_TOKEN_TTL_MS;
  }

  clear(): void {
    this.tokens.clear();
  }
}
