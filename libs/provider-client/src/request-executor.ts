import { randomUUID } from 'node:crypto';
import { NOOP_TRACING, type Tracing } from '#observability';
import { authorizeAdapter, type AuthorizeData } from './adapters/authorize.adapter.js';
import { RsaSignatureProvider, type SignatureProvider } from './auth/signature-provider.js';
import { TokenStore } from './auth/token-store.js';
import {
  concretePath,
  endpointTemplate,
  type BuiltRequest,
  type EndpointAdapter,
} from './core/endpoint-adapter.js';
import { header, retryAfterMs } from './core/http-answer.js';
import { type Classified, type ProviderResult, type WireFacts } from './core/outcome.js';
import { reasonOf, recordResult, type CallState, type ProviderClientLogger } from './call-recorder.js';
import { type ProviderClientMetrics } from './metrics/provider-client-metrics.js';
import { type ProviderAccount, type ProviderClientOptions } from './provider-client.options.js';
import { errorCodeOf, type HttpTransport, type Timeouts } from './transport/http-transport.js';
import { backoffMs, sleep } from './transport/token-bucket.js';
import { MemoryRateBudget } from './rate-budget/memory-rate-budget.js';
import { targetPerMinute, type RateBudget, type RateBudgetKey } from './rate-budget/rate-budget.js';

/** How many times a call may find its slot passed before sending (then retry-safe, not sent). */
const MAX_SLOTS_MISSED = 3;
export interface ExecutorDeps {
  readonly transport: HttpTransport;
  readonly metrics: ProviderClientMetrics;
  readonly logger?: ProviderClientLogger;
  readonly signer?: (account: ProviderAccount) => SignatureProvider | undefined;
  readonly now?: () => number;
  readonly random?: () => number;
  /** Asked before each send. Default: this process's token buckets (MemoryRateBudget). */
  readonly rateBudget?: RateBudget;
  /** A client span per call (retries, waits for a send slot and an authorize included). */
  readonly tracing?: Tracing;
}

/** Told of every result of a configured account, after it is recorded. Must not throw or block. */
export type ResultListener = (accountId: string, result: ProviderResult<unknown>) => void;

type Headers =
  { ok: true; headers: Record<string, string>; token?: string } | { ok: false; c: Classified<never> };

/**
 * Runs one adapter call: validate, rate-limit, authenticate, send, classify, and retry only what
 * is safe to retry. It never throws: every path ends in a ProviderResult.
 */
export class RequestExecutor {
  private readonly accounts: ReadonlyMap<string, ProviderAccount>;
  private readonly tokens = new Map<string, TokenStore>();
  private readonly budget: RateBudget;
  private readonly now: () => number;
  private readonly listeners: ResultListener[] = [];

  constructor(
    private readonly opts: ProviderClientOptions,
    private readonly deps: ExecutorDeps,
  ) {
    this.accounts = new Map(opts.accounts.map((a) => [a.accountId, a]));
    this.now = deps.now ?? Date.now;
    this.budget =
      deps.rateBudget ??
      new MemoryRateBudget(
        (rc) => targetPerMinute(opts.ratePerMinute, rc, opts.rateTargetFraction),
        this.now,
        { limitPerMinuteFor: (rc) => targetPerMinute(opts.ratePerMinute, rc), windowMs: opts.rateWindowMs },
      );
  }

  /** Closes the rate budget: callers still waiting for a slot are refused (retry-safe). */
  async close(): Promise<void> {
    await this.budget.close();
  }

  onResult(listener: ResultListener): void {
    this.listeners.push(listener);
  }

  /** payouts_provider_balance_refusals_total, for a configured account only (fixed label values). */
  balanceRefused(accountId: string): void {
    if (this.accounts.has(accountId)) this.deps.metrics.balanceRefused(accountId);
  }

  async execute<Req, D>(
    adapter: EndpointAdapter<Req, D>,
    accountId: string | undefined,
    req: Req,
    requestId: string = randomUUID(),
  ): Promise<ProviderResult<D>> {
    const tracing = this.deps.tracing ?? NOOP_TRACING;
    const result = !tracing.enabled
      ? await this.run(adapter, accountId, req, requestId)
      : await tracing.inSpan(
          `provider ${adapter.name}`,
          { kind: 'client', attributes: { 'payouts.provider.endpoint': adapter.name } },
          async (span) => {
            const r = await this.run(adapter, accountId, req, requestId);
            span.setAttributes(callAttributes(r));
            return r;
          },
        );
    const id = accountId ?? this.opts.defaultAccountId;
    if (this.accounts.has(id)) {
      if (result.outcome === 'failed' && result.shortOfFunds) this.balanceRefused(id);
      for (const l of this.listeners) {
        try {
          l(id, result);
        } catch {
          // A listener is an observer: it never changes the caller's result.
        }
      }
    }
    return result;
  }

  private async run<Req, D>(
    adapter: EndpointAdapter<Req, D>,
    accountId: string | undefined,
    req: Req,
    requestId: string,
  ): Promise<ProviderResult<D>> {
    const st: CallState = { requestId, startedAt: this.now(), attempts: 0, sent: false, secrets: [] };
    const account = this.accounts.get(accountId ?? this.opts.defaultAccountId);
    try {
      if (!account)
        return this.finish(adapter, st, {
          outcome: 'fatal-config',
          reason: 'Unknown provider account',
          wire: {},
        });
      st.secrets.push(account.clientSecret, ...(adapter.secrets?.(req) ?? []));
      // X-Request-Id: a value HTTP cannot carry in a header is refused here, before any attempt
      // (the HTTP client would refuse it locally; nothing is sent either way).
      if (!isHeaderValue(requestId)) {
        const message = 'requestId cannot be sent as a header (control or non-Latin-1 characters)';
        return this.finish(adapter, st, {
          outcome: 'failed',
          kind: 'invalid-request',
          reason: message,
          wire: adapter.host === 'base' ? { code: 'request_id_invalid', message } : { message },
        });
      }
      const refusal = adapter.validate(req);
      if (refusal) {
        const wire: WireFacts =
          adapter.host === 'base'
            ? { code: refusal.code, message: refusal.message }
            : { subCode: refusal.code, message: refusal.message };
        return this.finish(adapter, st, {
          outcome: 'failed',
          kind: 'invalid-request',
          reason: refusal.message,
          wire,
        });
      }
      return await this.loop(adapter, account, adapter.build(req), st);
    } catch (e) {
      return this.finish(adapter, st, {
        outcome: 'unknown',
        reason: 'Internal error in the provider client',
        wire: { errorCode: errorCodeOf(e) },
      });
    }
  }

  /** Forces a fresh bearer token for an account (start-up checks, tests). */
  async authorize(accountId: string | undefined): Promise<ProviderResult<AuthorizeData>> {
    const id = accountId ?? this.opts.defaultAccountId;
    if (!this.accounts.has(id)) return this.execute(authorizeAdapter, id, undefined);
    const grant = await this.tokenStore(id).refresh();
    return grant.result ?? this.execute(authorizeAdapter, id, undefined);
  }

  private async loop<Req, D>(
    adapter: EndpointAdapter<Req, D>,
    account: ProviderAccount,
    built: BuiltRequest,
    st: CallState,
  ): Promise<ProviderResult<D>> {
    const template = endpointTemplate(adapter);
    const key: RateBudgetKey = {
      accountId: account.accountId,
      endpoint: adapter.rateKey ?? adapter.name,
      rateClass: adapter.rateClass,
    };
    const pause = (ms: number) => this.budget.pause(key, ms);
    let refreshed = false;
    let slotsMissed = 0;
    for (;;) {
      // Auth first (an authorize, when the token is due): a send slot taken before it would be
      // spent late, crowded together with the slots after it.
      const ready = await this.headers(adapter, account, st);
      if (!ready.ok) return this.finish(adapter, st, ready.c);
      const grant = await this.budget.acquire(key, this.opts.maxRateLimitWaitMs);
      if (!grant.ok) {
        return this.finish(adapter, st, {
          outcome: 'retry-safe',
          reason:
            grant.reason === 'wait-too-long'
              ? 'Rate limit wait too long; not sent'
              : 'Rate budget unavailable; not sent',
          wire: {},
        });
      }
      if (grant.waitedMs > 0) this.deps.metrics.rateLimitWait(template, grant.waitedMs / 1000);
      // After a wait, fresh headers (the cached token unless it fell due; a new signature).
      const h = grant.waitedMs > 0 ? await this.headers(adapter, account, st) : ready;
      if (!h.ok) return this.finish(adapter, st, h.c);
      // A credential or token HTTP cannot carry (a stray newline in a secret): configuration,
      // never sent. Its name only; the value may be a secret.
      const bad = Object.entries(h.headers).find(([, v]) => !isHeaderValue(v));
      if (bad) {
        return this.finish(adapter, st, {
          outcome: 'fatal-config',
          reason: `Header ${bad[0]} cannot be sent (control or non-Latin-1 characters); not sent`,
          wire: {},
        });
      }
      // The slot may have passed while the headers were made (a token refresh, a stalled
      // process): sent now, the call would crowd the slots after it. Not sent; a new slot.
      if (grant.onTime && !grant.onTime()) {
        slotsMissed += 1;
        if (slotsMissed > MAX_SLOTS_MISSED) {
          return this.finish(adapter, st, {
            outcome: 'retry-safe',
            reason: 'Rate limit slot passed before sending; not sent',
            wire: {},
          });
        }
        continue;
      }
      st.attempts += 1;
      const c = await this.send(adapter, built, h.headers, st, pause);
      if (c.outcome === 'auth-refresh' && h.token !== undefined && !refreshed) {
        // Only "Token is not valid" gets here: other 403s are fatal-config or failed by table.
        refreshed = true;
        this.tokenStore(account.accountId).invalidate(h.token);
        continue;
      }
      if (c.outcome === 'retry-safe' && st.attempts < this.opts.maxAttempts + (refreshed ? 1 : 0)) {
        if (c.retryAfterMs !== undefined) {
          if (c.retryAfterMs > this.opts.maxRateLimitWaitMs) return this.finish(adapter, st, c);
          pause(c.retryAfterMs);
        } else {
          await sleep(backoffMs(st.attempts, this.opts.retryBaseMs, this.opts.retryMaxMs, this.deps.random));
        }
        // An answer came (a 429, perhaps from an intermediary that forwarded it): the provider may
        // hold this attempt, so whatever the re-send is answered is a re-send's answer.
        if (c.wire.httpStatus !== undefined) st.earlierAttemptMayHaveReached = true;
        continue;
      }
      return this.finish(adapter, st, c);
    }
  }

  private async send<Req, D>(
    adapter: EndpointAdapter<Req, D>,
    built: BuiltRequest,
    headers: Record<string, string>,
    st: CallState,
    pause: (ms: number) => void,
  ): Promise<Classified<D>> {
    const host = adapter.host === 'base' ? this.opts.hosts.baseUrl : this.opts.hosts.payoutUrl;
    const qs = built.query ? `?${new URLSearchParams(built.query).toString()}` : '';
    const out = await this.deps.transport.send({
      method: adapter.method,
      url: `${host}${concretePath(adapter.path, built.pathParams)}${qs}`,
      headers,
      body: built.body,
      timeouts: this.timeoutsFor(adapter),
    });
    if (!out.ok) {
      if (!out.sent) {
        return {
          outcome: 'retry-safe',
          reason: 'Connection failed before sending',
          wire: { errorCode: out.errorCode },
        };
      }
      st.sent = true;
      // The request may have been processed: re-check the status, never re-initiate.
      return {
        outcome: 'unknown',
        reason: 'No answer (timeout or connection lost)',
        wire: { errorCode: out.errorCode },
      };
    }
    st.sent = true;
    // The provider announces exhaustion before it refuses: stop this bucket until its window resets.
    if (header(out.answer, 'x-ratelimit-remaining')?.trim() === '0') {
      const ms = retryAfterMs(out.answer);
      if (ms !== undefined) pause(ms);
    }
    const c = adapter.classify(out.answer);
    if (out.answer.statusCode === 429 || (c.outcome === 'retry-safe' && String(c.wire.subCode) === '429')) {
      this.deps.metrics.rateLimited(endpointTemplate(adapter));
    }
    return c;
  }

  private async headers<Req, D>(
    adapter: EndpointAdapter<Req, D>,
    account: ProviderAccount,
    st: CallState,
  ): Promise<Headers> {
    const headers: Record<string, string> = { accept: 'application/json', 'x-request-id': st.requestId };
    if (adapter.method === 'POST') headers['content-type'] = 'application/json';
    switch (adapter.auth) {
      case 'client-headers':
        headers['x-client-id'] = account.clientId;
        headers['x-client-secret'] = account.clientSecret;
        headers['x-api-version'] = account.apiVersion ?? this.opts.apiVersion;
        return { ok: true, headers };
      case 'client-credentials': {
        headers['X-Client-Id'] = account.clientId;
        headers['X-Client-Secret'] = account.clientSecret;
        const signer = this.deps.signer ? this.deps.signer(account) : defaultSigner(account);
        if (signer) headers['X-Svc-Signature'] = signer.sign(account.clientId);
        return { ok: true, headers };
      }
      case 'bearer': {
        const grant = await this.tokenStore(account.accountId).get();
        if (!grant.ok) {
          const r = grant.result;
          // The call itself was never sent, so anything but a configuration fault is retry-safe.
          const outcome = r.outcome === 'fatal-config' ? 'fatal-config' : 'retry-safe';
          const d = r.diagnostics;
          const wire: WireFacts = {
            httpStatus: d.httpStatus,
            status: d.status,
            subCode: d.subCode,
            message: d.message,
            errorCode: d.errorCode,
          };
          return {
            ok: false,
            c: { outcome, reason: `Authorize failed: ${reasonOf(r) ?? 'no token'}`, wire },
          };
        }
        st.secrets.push(grant.token);
        headers['authorization'] = `Bearer ${grant.token}`;
        return { ok: true, headers, token: grant.token };
      }
    }
  }

  private tokenStore(accountId: string): TokenStore {
    let s = this.tokens.get(accountId);
    if (!s) {
      s = new TokenStore(
        async () => {
          const r = await this.execute(authorizeAdapter, accountId, undefined);
          this.deps.metrics.authorize(r.outcome);
          return r;
        },
        this.opts.tokenRefreshMarginSeconds,
        this.now,
      );
      this.tokens.set(accountId, s);
    }
    return s;
  }

  private timeoutsFor(adapter: { readonly name: string; readonly rateClass: string }): Timeouts {
    const base = adapter.rateClass === 'transfer' ? this.opts.timeouts.transfer : this.opts.timeouts.default;
    return { ...base, ...(this.opts.timeouts.perEndpoint?.[adapter.name] ?? {}) };
  }

  private finish<Req, D>(
    adapter: EndpointAdapter<Req, D>,
    st: CallState,
    c: Classified<D>,
  ): ProviderResult<D> {
    return recordResult(adapter, st, c, this.now() - st.startedAt, this.deps);
  }
}

/** What an HTTP header value may hold (undici refuses the rest locally): no CR, LF, NUL or other controls. */
function isHeaderValue(v: string): boolean {
  return /^[\t\x20-\x7e\x80-\xff]*$/.test(v);
}

function defaultSigner(account: ProviderAccount): SignatureProvider | undefined {
  return account.publicKey ? new RsaSignatureProvider(account.publicKey) : undefined;
}

/**
 * What a provider call's span records: the outcome and the wire's codes, never a message (it may
 * quote a request), an account, a VPA, a name or a token. The request id is the client's own.
 */
function callAttributes(r: ProviderResult<unknown>): Record<string, string | number | boolean> {
  const d = r.diagnostics;
  const out: Record<string, string | number | boolean> = {
    'payouts.provider.outcome': r.outcome,
    'payouts.provider.sent': d.sent,
    'payouts.provider.attempts': d.attempts,
    'payouts.provider.request_id': d.requestId,
  };
  if (d.httpStatus !== undefined) out['http.response.status_code'] = d.httpStatus;
  if (d.status !== undefined) out['payouts.provider.status'] = d.status;
  if (d.subCode !== undefined) out['payouts.provider.sub_code'] = d.subCode;
  if (d.code !== undefined) out['payouts.provider.code'] = d.code;
  if (d.errorCode !== undefined) out['error.type'] = d.errorCode;
  if (r.outcome === 'failed') out['payouts.provider.failure'] = r.kind;
  return out;
}
