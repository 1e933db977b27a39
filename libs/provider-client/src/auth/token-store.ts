import { type ProviderResult } from '../core/outcome.js';
import { type AuthorizeData } from '../adapters/authorize.adapter.js';

export type AuthorizeResult = ProviderResult<AuthorizeData>;

export type TokenGrant =
  | {
      readonly ok: true;
      readonly token: string;
      readonly result?: Extract<AuthorizeResult, { outcome: 'success' }>;
    }
  | { readonly ok: false; readonly result: Exclude<AuthorizeResult, { outcome: 'success' }> };

/**
 * The bearer token of one provider account. Refresh is single-flight: however many requests find
 * the token due, one authorize call is made and all of them share its result.
 */
export class TokenStore {
  private current: { token: string; refreshAtMs: number } | undefined;
  private inflight: Promise<TokenGrant> | undefined;

  constructor(
    private readonly authorize: () => Promise<AuthorizeResult>,
    private readonly marginSeconds: number,
    private readonly now: () => number = Date.now,
  ) {}

  async get(): Promise<TokenGrant> {
    const c = this.current;
    if (c && this.now() < c.refreshAtMs) return { ok: true, token: c.token };
    return this.refresh();
  }

  /**
   * After "Token is not valid": drop the token, but only if it is still the one that failed, so a
   * burst of rejections of the same old token costs one authorize, not one each.
   */
  invalidate(token: string): void {
    if (this.current?.token === token) this.current = undefined;
  }

  refresh(): Promise<TokenGrant> {
    this.inflight ??= this.authorizeOnce().finally(() => {
      this.inflight = undefined;
    });
    return this.inflight;
  }

  private async authorizeOnce(): Promise<TokenGrant> {
    const result = await this.authorize();
    if (result.outcome !== 'success') {
      this.current = undefined;
      return { ok: false, result };
    }
    const nowMs = this.now();
    const expiresMs = result.data.expiresAt * 1000;
    const lifetimeMs = Math.max(0, expiresMs - nowMs);
    // A margin larger than half the lifetime would re-authorize on nearly every call.
    const marginMs = Math.min(this.marginSeconds * 1000, lifetimeMs / 2);
    this.current = { token: result.data.token, refreshAtMs: expiresMs - marginMs };
    return { ok: true, token: result.data.token, result };
  }
}
