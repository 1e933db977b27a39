import { Counter, type Registry } from 'prom-client';
import { type Operator } from './operators.js';

/**
 * Why a sign-in failed: no Authorization header, one that is not `Bearer <token>`, a token no
 * operator has, an issued token past its expiry or revoked, or a source refused because it failed
 * too often. Never anything of the token.
 */
export type SignInFailure =
  'missing' | 'malformed' | 'unknown_token' | 'expired_token' | 'revoked_token' | 'limited';

const FAILURES = [
  'missing',
  'malformed',
  'unknown_token',
  'expired_token',
  'revoked_token',
  'limited',
] as const satisfies SignInFailure[];

/**
 * What a token is: an operator's (the configured tokens, then the issued ones), an issued token
 * that expired or was revoked, or nobody's.
 */
export type TokenCheck =
  | { readonly ok: true; readonly operator: Operator; readonly tokenId?: string }
  | {
      readonly ok: false;
      readonly reason: 'unknown_token' | 'expired_token' | 'revoked_token';
      readonly tokenId?: string;
    };

export type TokenAuthenticator = (token: string) => TokenCheck | Promise<TokenCheck>;

export interface SignInLimits {
  /** Failed sign-ins a source may make in a window; the next ones are refused until it ends. */
  readonly maxFailures: number;
  readonly windowMs: number;
  /** At most one log line per source per interval; the next says how many were left out. */
  readonly logIntervalMs: number;
  /** Sources tracked at once (memory bound); the oldest are forgotten first. */
  readonly maxSources?: number;
}

const MAX_SOURCES = 10_000;

/**
 * Failed sign-ins per source, in a window that opens at the source's first failure. A success
 * does not reset the count: with one token per operator, a viewer interleaving good sign-ins
 * with guesses at an approver's token would otherwise never be limited.
 */
export class FailureWindow {
  private readonly sources = new Map<string, { since: number; failures: number }>();

  constructor(
    private readonly maxFailures: number,
    private readonly windowMs: number,
    private readonly maxSources = MAX_SOURCES,
  ) {}

  /** Undefined when `source` may try; else the whole seconds until it may (Retry-After, >= 1). */
  refusal(source: string, now: number): number | undefined {
    const s = this.sources.get(source);
    if (!s) return undefined;
    if (now - s.since >= this.windowMs) {
      this.sources.delete(source);
      return undefined;
    }
    return s.failures >= this.maxFailures
      ? Math.max(1, Math.ceil((s.since + this.windowMs - now) / 1000))
      : undefined;
  }

  fail(source: string, now: number): void {
    let s = this.sources.get(source);
    if (!s || now - s.since >= this.windowMs) {
      this.sources.delete(source);
      s = { since: now, failures: 0 };
      this.sources.set(source, s);
      this.bound(now);
    }
    s.failures += 1;
  }

  get tracked(): number {
    return this.sources.size;
  }

  private bound(now: number): void {
    if (this.sources.size <= this.maxSources) return;
    for (const [k, v] of this.sources) if (now - v.since >= this.windowMs) this.sources.delete(k);
    // Map order is insertion order: the first entries opened their window longest ago.
    for (const k of this.sources.keys()) {
      if (this.sources.size <= this.maxSources) break;
      this.sources.delete(k);
    }
  }
}

/** One line to log: the failure now, and how many from the same source were left out before it. */
export interface SampledLine {
  readonly source: string;
  readonly suppressed: number;
}

/**
 * Log sampling per source: the first failure of an interval is logged at once, the rest only
 * counted; `flush` (on a timer) reports the counts of intervals that are over, so a flood from one
 * source is two lines per interval, and nothing goes unaccounted. Sources forgotten to bound
 * memory have their counts reported under `others`.
 */
export class SampledLog {
  private readonly sources = new Map<string, { lastAt: number; suppressed: number }>();
  private evicted = 0;

  constructor(
    private readonly intervalMs: number,
    private readonly maxSources = MAX_SOURCES,
  ) {}

  /** A failure from `source`: the line to write now, or undefined (counted for a later line). */
  note(source: string, now: number): SampledLine | undefined {
    const s = this.sources.get(source);
    if (s && now - s.lastAt < this.intervalMs) {
      s.suppressed += 1;
      return undefined;
    }
    const suppressed = s?.suppressed ?? 0;
    this.sources.delete(source);
    this.sources.set(source, { lastAt: now, suppressed: 0 });
    this.bound();
    return { source, suppressed };
  }

  /** Lines for sources whose interval is over with failures left out; forgets idle sources. */
  flush(now: number): SampledLine[] {
    const lines: SampledLine[] = [];
    for (const [source, s] of this.sources) {
      if (now - s.lastAt < this.intervalMs) continue;
      if (s.suppressed > 0) {
        lines.push({ source, suppressed: s.suppressed });
        s.lastAt = now;
        s.suppressed = 0;
      } else this.sources.delete(source);
    }
    if (this.evicted > 0) {
      lines.push({ source: 'others', suppressed: this.evicted });
      this.evicted = 0;
    }
    return lines;
  }

  private bound(): void {
    for (const [k, v] of this.sources) {
      if (this.sources.size <= this.maxSources) break;
      this.evicted += v.suppressed;
      this.sources.delete(k);
    }
  }
}

export class SignInMetrics {
  readonly failures: Counter<'reason'>;
  /** Every sign-in and refusal, by how and what came of it; never who (ids are not labels). */
  readonly signIns: Counter<'method' | 'outcome'>;

  constructor(registry: Registry) {
    this.failures = new Counter({
      name: 'payouts_ops_auth_failures_total',
      help: 'Failed bearer-token sign-ins to the operations API, by reason: missing (no Authorization header and no session), malformed (not Bearer), unknown_token, expired_token, revoked_token, limited (refused: too many failures from that source)',
      labelNames: ['reason'],
      registers: [registry],
    });
    for (const reason of FAILURES) this.failures.inc({ reason }, 0);
    this.signIns = new Counter({
      name: 'payouts_ops_sign_ins_total',
      help: 'Sign-ins to the operations API and console and their refusals, by method (oidc: a console sign-in with the identity provider; token: a bearer token, per request; session: a console session cookie refused) and outcome (success, signed_out, no_role, provider_error, no_login, expired, a token failure reason)',
      labelNames: ['method', 'outcome'],
      registers: [registry],
    });
    for (const outcome of ['success', 'signed_out', 'no_role', 'provider_error', 'no_login'])
      this.signIns.inc({ method: 'oidc', outcome }, 0);
    for (const outcome of ['success', ...FAILURES]) this.signIns.inc({ method: 'token', outcome }, 0);
    this.signIns.inc({ method: 'session', outcome: 'expired' }, 0);
  }
}

export type SignIn =
  | { readonly ok: true; readonly operator: Operator; readonly tokenId?: string }
  | {
      readonly ok: false;
      readonly reason: SignInFailure;
      readonly retryAfterSeconds?: number;
      readonly tokenId?: string;
    };

/**
 * Where sampled lines go (a logger in the service; an array in tests): a failure logged as it
 * happens has its reason; a line of `flush` only counts the failures left out since the last one.
 */
export type SignInLog = (line: SampledLine & { reason?: SignInFailure }) => void;

/**
 * The operations API's sign-in: a bearer token checked against the operators, failures counted by
 * reason, logged sampled per source, and limited per source address. A source past its limit is
 * refused before its token is looked at, so a right token is no different from a wrong one there
 * (no oracle for the guesses the limit is meant to slow). Other sources are not affected.
 */
export class SignInGate {
  private readonly window: FailureWindow;
  private readonly sampled: SampledLog;

  constructor(
    private readonly authenticate: TokenAuthenticator,
    limits: SignInLimits,
    private readonly metrics: SignInMetrics,
    private readonly log: SignInLog,
  ) {
    this.window = new FailureWindow(limits.maxFailures, limits.windowMs, limits.maxSources);
    this.sampled = new SampledLog(limits.logIntervalMs, limits.maxSources);
  }

  async attempt(source: string, authorization: string | string[] | undefined, now: number): Promise<SignIn> {
    const retryAfterSeconds = this.window.refusal(source, now);
    if (retryAfterSeconds !== undefined) return this.failed(source, 'limited', now, retryAfterSeconds);
    if (authorization === undefined || authorization === '') return this.failed(source, 'missing', now);
    const m = typeof authorization === 'string' ? /^Bearer ([^\s]+)$/.exec(authorization) : null;
    if (!m?.[1]) return this.failed(source, 'malformed', now);
    const check = await this.authenticate(m[1]);
    if (check.ok) {
      this.metrics.signIns.inc({ method: 'token', outcome: 'success' });
      return check;
    }
    const failed = this.failed(source, check.reason, now);
    return check.tokenId === undefined ? failed : { ...failed, tokenId: check.tokenId };
  }

  /** Lines whose interval is over (the service calls this on a timer). */
  flush(now: number): void {
    for (const line of this.sampled.flush(now)) this.log(line);
  }

  private failed(
    source: string,
    reason: SignInFailure,
    now: number,
    retryAfterSeconds?: number,
  ): SignIn & { ok: false } {
    this.metrics.failures.inc({ reason });
    this.metrics.signIns.inc({ method: 'token', outcome: reason });
    // A refused attempt is not counted again: the window closes when it said it would.
    if (reason !== 'limited') this.window.fail(source, now);
    const line = this.sampled.note(source, now);
    if (line) this.log({ ...line, reason });
    return retryAfterSeconds === undefined ? { ok: false, reason } : { ok: false, reason, retryAfterSeconds };
  }
}
