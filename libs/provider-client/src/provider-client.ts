import { type AuthorizeData } from './adapters/authorize.adapter.js';
import { type EndpointAdapter } from './core/endpoint-adapter.js';
import { type ProviderResult } from './core/outcome.js';
import {
  ADAPTER_REGISTRY,
  type AnswerOf,
  type CallableEndpoint,
  type RequestOf,
} from './endpoints/adapter-registry.js';
import { type ExecutorDeps, RequestExecutor, type ResultListener } from './request-executor.js';
import { type ProviderClientOptions } from './provider-client.options.js';

/** Per call: which account (default: the configured primary) and the caller's X-Request-Id. */
export interface CallOptions {
  readonly accountId?: string;
  readonly requestId?: string;
}

/**
 * The provider, one call by endpoint name: `call('requestTransfer', request, opts)`, its request
 * and answer types read from the endpoint's registry row (endpoints/adapter-registry.ts). Every
 * call resolves (never rejects) to a ProviderResult; branch on `outcome`.
 */
export class ProviderClient {
  private readonly exec: RequestExecutor;

  constructor(
    opts: ProviderClientOptions,
    private readonly deps: ExecutorDeps,
  ) {
    this.exec = new RequestExecutor(opts, deps);
  }

  call<N extends CallableEndpoint>(
    name: N,
    request: RequestOf<N>,
    o: CallOptions = {},
  ): Promise<ProviderResult<AnswerOf<N>>> {
    // The row's adapter is the one RequestOf / AnswerOf read: the compiler cannot follow N through it.
    const adapter = ADAPTER_REGISTRY[name].adapter as unknown as EndpointAdapter<RequestOf<N>, AnswerOf<N>>;
    return this.exec.execute(adapter, o.accountId, request, o.requestId);
  }

  /** Forces a fresh bearer token. The token itself stays inside; callers see its expiry. */
  async authorize(o: CallOptions = {}): Promise<ProviderResult<Pick<AuthorizeData, 'expiresAt'>>> {
    const r = await this.exec.authorize(o.accountId);
    if (r.outcome !== 'success') return r.outcome === 'pending' ? { ...r, data: undefined } : r;
    return { outcome: 'success', data: { expiresAt: r.data.expiresAt }, diagnostics: r.diagnostics };
  }

  /**
   * Observes every result of a configured account (each call, and each authorize behind a bearer
   * call), e.g. to follow whether the provider still accepts our credentials and address.
   */
  onResult(listener: ResultListener): void {
    this.exec.onResult(listener);
  }

  /** Counts a refusal for the balance learnt outside a call (an applied webhook), for a configured account. */
  balanceRefused(accountId: string): void {
    this.exec.balanceRefused(accountId);
  }

  async close(): Promise<void> {
    await this.exec.close();
    await this.deps.transport.close();
  }
}
