import { type ClientRequest } from 'node:http';
import { type AppLogger } from '#observability';
import { type SandboxClock } from '../core/clock.js';
import { seeded } from '../core/faults.js';
import { formatPaise, type Paise } from '../core/money.js';
import { encodeWebhook, type EncodedWebhook } from './webhook.encode.js';
import { postOnce } from './http-post.js';
import {
  eventInVersion,
  NO_WEBHOOK_FAULTS,
  type DeliveryAttempt,
  type DeliveryOutcome,
  type WebhookEvent,
  type WebhookFaults,
  type WebhookTarget,
  type WebhookVersion,
} from './webhook.types.js';

/** The provider disables an endpoint that fails more than this many times in a row. */
export const DISABLE_AFTER_FAILURES = 5;
/** The attempt log keeps this many entries (oldest dropped first). */
const MAX_LOGGED = 10_000;
/** Captured transfer webhooks kept per format for the hostile sender (oldest dropped first). */
const MAX_CAPTURED = 2_000;

/** A genuine transfer webhook as it went over the wire: what someone on the path could record. */
export interface CapturedWebhook {
  readonly version: WebhookVersion;
  readonly event: string;
  readonly transferId: string;
  readonly body: string;
  readonly headers: Readonly<Record<string, string>>;
}

export interface WebhookSettings {
  /** Where to send, from the options or SANDBOX_WEBHOOK_URL; absent: no webhooks. */
  readonly target: WebhookTarget | undefined;
  /** A 2xx must arrive within this (real time) for an attempt to count as delivered. */
  readonly timeoutMs: number;
  /** Wait before the second attempt (sandbox clock); doubles per attempt. */
  readonly retryBaseMs: number;
  /** Attempts per webhook, the first included. */
  readonly maxAttempts: number;
  /** LOW_BALANCE_ALERT when the balance falls below this (paise). */
  readonly lowBalanceThreshold: Paise;
}

export interface WebhookCounts {
  /** Webhooks produced while an endpoint was configured (duplicates not counted). */
  emitted: number;
  /** HTTP attempts made. */
  attempts: number;
  delivered: number;
  failedAttempts: number;
  /** Webhooks that failed every attempt. */
  exhausted: number;
  dropped: number;
  duplicated: number;
  badSignature: number;
  /** Webhooks not sent because the endpoint was disabled (they are not sent later either). */
  skipped: number;
}

const zeroCounts = (): WebhookCounts => ({
  emitted: 0,
  attempts: 0,
  delivered: 0,
  failedAttempts: 0,
  exhausted: 0,
  dropped: 0,
  duplicated: 0,
  badSignature: 0,
  skipped: 0,
});

interface Job {
  readonly id: number;
  readonly event: WebhookEvent;
  readonly badSignature: boolean;
  readonly duplicate: boolean;
  readonly generation: number;
}

export interface WebhookConfigChange {
  /** `null` stops sending. */
  readonly url?: string | null;
  readonly version?: WebhookVersion;
  readonly faults?: Partial<WebhookFaults>;
  readonly lowBalanceThreshold?: Paise;
}

/**
 * Sends webhooks as the provider does: asynchronously, at least once, retried with backoff,
 * and no more once the endpoint has failed more than five times in a row (until re-enabled).
 * First attempts go out one at a time in the order the events happened (unless the reorder
 * fault shuffles them); retries run beside them.
 */
export class WebhookDispatcher {
  private url: string | undefined;
  private version: WebhookVersion;
  faults: WebhookFaults = NO_WEBHOOK_FAULTS;
  lowBalanceThreshold: Paise;
  disabled = false;
  consecutiveFailures = 0;
  counts = zeroCounts();
  private log: DeliveryAttempt[] = [];
  private captured: Record<WebhookVersion, CapturedWebhook[]> = { v1: [], v2: [] };
  private random = seeded(NO_WEBHOOK_FAULTS.seed);
  private nextId = 0;
  private generation = 0;
  private closed = false;
  private chain: Promise<void> = Promise.resolve();
  private held: Job[] = [];
  private readonly active = new Set<ClientRequest>();

  constructor(
    private readonly clock: SandboxClock,
    private readonly secret: string,
    private readonly settings: WebhookSettings,
    private readonly logger?: AppLogger,
  ) {
    this.url = settings.target?.url;
    this.version = settings.target?.version ?? 'v2';
    this.lowBalanceThreshold = settings.lowBalanceThreshold;
  }

  /** Where webhooks go now; undefined: none are sent. */
  get target(): WebhookTarget | undefined {
    return this.url === undefined ? undefined : { url: this.url, version: this.version };
  }

  configure(change: WebhookConfigChange): void {
    if (change.url !== undefined) this.url = change.url ?? undefined;
    if (change.version !== undefined) this.version = change.version;
    if (change.faults) {
      this.faults = { ...this.faults, ...change.faults };
      this.random = seeded(this.faults.seed);
    }
    if (change.lowBalanceThreshold !== undefined) this.lowBalanceThreshold = change.lowBalanceThreshold;
  }

  /** The dashboard's "enable": sending resumes and the failure count starts again. */
  enable(): void {
    this.disabled = false;
    this.consecutiveFailures = 0;
  }

  deliveries(): readonly DeliveryAttempt[] {
    return this.log;
  }

  view(): Record<string, unknown> {
    return {
      url: this.url ?? null,
      version: this.version,
      faults: this.faults,
      lowBalanceThreshold: formatPaise(this.lowBalanceThreshold),
      timeoutMs: this.settings.timeoutMs,
      retryBaseMs: this.settings.retryBaseMs,
      maxAttempts: this.settings.maxAttempts,
      disabled: this.disabled,
      consecutiveFailures: this.consecutiveFailures,
      held: this.held.length,
      counts: this.counts,
    };
  }

  /** Back to the configured endpoint, no faults, enabled, empty log; in-flight work is forgotten. */
  reset(): void {
    this.generation += 1;
    this.url = this.settings.target?.url;
    this.version = this.settings.target?.version ?? 'v2';
    this.faults = NO_WEBHOOK_FAULTS;
    this.random = seeded(NO_WEBHOOK_FAULTS.seed);
    this.lowBalanceThreshold = this.settings.lowBalanceThreshold;
    this.disabled = false;
    this.consecutiveFailures = 0;
    this.counts = zeroCounts();
    this.log = [];
    this.captured = { v1: [], v2: [] };
    this.held = [];
    this.chain = Promise.resolve();
  }

  /** Genuine transfer webhooks captured as sent (newest last), for `HostileSender`. */
  captures(version: WebhookVersion): readonly CapturedWebhook[] {
    return this.captured[version];
  }

  close(): void {
    this.closed = true;
    this.generation += 1;
    this.held = [];
    for (const req of this.active) req.destroy();
    this.active.clear();
  }

  /**
   * Called once the state change is visible. Returns at once; the webhook goes out later (after
   * the current HTTP answer, when one is being built).
   */
  emit(event: WebhookEvent): void {
    const target = this.target;
    if (this.closed || !target || !eventInVersion(event, target.version)) return;
    this.counts.emitted += 1;
    this.nextId += 1;
    const id = this.nextId;
    const f = this.faults;
    const draw = (rate: number): boolean => rate > 0 && this.random() < rate;
    if (draw(f.dropRate)) {
      this.counts.dropped += 1;
      this.record(
        { id, event, badSignature: false, duplicate: false, generation: this.generation },
        0,
        'dropped',
        {},
      );
      return;
    }
    const badSignature = draw(f.badSignatureRate);
    const duplicate = draw(f.duplicateRate);
    const job: Job = { id, event, badSignature, duplicate: false, generation: this.generation };
    if (badSignature) this.counts.badSignature += 1;
    this.background(this.schedule(job));
    if (duplicate) {
      this.counts.duplicated += 1;
      this.background(this.schedule({ ...job, duplicate: true }));
    }
  }

  /** Nobody awaits delivery work: report a failure rather than crash the process. */
  private background(work: Promise<void>): void {
    work.catch((err: unknown) => this.logger?.error({ err }, 'sandbox webhook delivery failed'));
  }

  private live(job: Job): boolean {
    return !this.closed && job.generation === this.generation;
  }

  private async schedule(job: Job): Promise<void> {
    // Never inside the answer to the call that made the change.
    await new Promise<void>((resolve) => setImmediate(resolve));
    if (this.faults.delayMs > 0) await this.clock.sleep(this.faults.delayMs);
    if (!this.live(job)) return;
    if (this.faults.reorderWindowMs > 0) {
      this.held.push(job);
      if (this.held.length === 1)
        this.background(this.flushAfter(this.faults.reorderWindowMs, job.generation));
      return;
    }
    this.enqueue([job]);
  }

  private async flushAfter(windowMs: number, generation: number): Promise<void> {
    await this.clock.sleep(windowMs);
    if (this.closed || generation !== this.generation) return;
    const jobs = this.shuffle(this.held);
    this.held = [];
    this.enqueue(jobs);
  }

  /** Fisher-Yates from the seeded generator; a shuffle that changed nothing is reversed. */
  private shuffle(jobs: readonly Job[]): Job[] {
    const out = [...jobs];
    for (let i = out.length - 1; i > 0; i -= 1) {
      const j = Math.floor(this.random() * (i + 1));
      const a = out[i];
      const b = out[j];
      if (a === undefined || b === undefined) continue;
      out[i] = b;
      out[j] = a;
    }
    if (out.length > 1 && out.every((j, i) => j === jobs[i])) out.reverse();
    return out;
  }

  /** First attempts, one after another; a failed one is retried off the queue. */
  private enqueue(jobs: readonly Job[]): void {
    for (const job of jobs) {
      this.chain = this.chain
        .then(async () => {
          if (!this.live(job)) return;
          if (!(await this.attempt(job, 1))) this.background(this.retry(job));
        })
        .catch((err: unknown) => this.logger?.error({ err }, 'sandbox webhook delivery failed'));
    }
  }

  private async retry(job: Job): Promise<void> {
    for (let n = 2; n <= this.settings.maxAttempts; n += 1) {
      await this.clock.sleep(this.settings.retryBaseMs * 2 ** (n - 2));
      if (!this.live(job)) return;
      if (await this.attempt(job, n)) return;
    }
    if (this.live(job)) this.counts.exhausted += 1;
  }

  /** One try; true when delivered or when there is nothing more to do. */
  private async attempt(job: Job, n: number): Promise<boolean> {
    const target = this.target;
    if (!target || !eventInVersion(job.event, target.version)) return true;
    if (this.disabled) {
      this.counts.skipped += 1;
      this.record(job, n, 'skipped', {});
      return true;
    }
    const secret = job.badSignature ? `${this.secret}-not-the-secret` : this.secret;
    const event = this.onWallClock(job.event);
    const encoded = encodeWebhook(event, target.version, secret, Date.now());
    if (n === 1 && !job.duplicate && !job.badSignature) this.capture(event, target.version, encoded);
    this.counts.attempts += 1;
    const res = await postOnce(
      target.url,
      encoded.body,
      encoded.headers,
      this.settings.timeoutMs,
      this.active,
    );
    if (!this.live(job)) return true;
    const ok = res.status !== undefined && res.status >= 200 && res.status < 300;
    this.record(job, n, ok ? 'delivered' : 'failed', res);
    if (ok) {
      this.counts.delivered += 1;
      this.consecutiveFailures = 0;
      return true;
    }
    this.counts.failedAttempts += 1;
    this.consecutiveFailures += 1;
    if (!this.disabled && this.consecutiveFailures > DISABLE_AFTER_FAILURES) {
      this.disabled = true;
      this.logger?.warn(
        { consecutiveFailures: this.consecutiveFailures },
        'sandbox webhook endpoint disabled (enable with POST /__sandbox/webhooks/enable)',
      );
    }
    return false;
  }

  /**
   * The event with its time on the wall clock: the provider's clock is the real time, so its
   * `eventTime` is never ahead of a receiver's. The sandbox clock may have been moved ahead (a
   * test skipping a beneficiary's cooling period, say); the event keeps its age on that clock.
   */
  private onWallClock(e: WebhookEvent): WebhookEvent {
    return { ...e, at: Date.now() - Math.max(0, this.clock.now() - e.at) };
  }

  /**
   * Keeps a genuine transfer webhook as sent, and the same event as the other format would have
   * carried it at the same moment (the provider signs both; a run sends one), so a hostile
   * sender can replay either format without the secret.
   */
  private capture(event: WebhookEvent, version: WebhookVersion, sent: EncodedWebhook): void {
    if (event.kind !== 'transfer') return;
    const other: WebhookVersion = version === 'v1' ? 'v2' : 'v1';
    const keep = (v: WebhookVersion, e: EncodedWebhook): void => {
      const list = this.captured[v];
      list.push({
        version: v,
        event: event.type,
        transferId: event.transferId,
        body: e.body,
        headers: e.headers,
      });
      if (list.length > MAX_CAPTURED) list.splice(0, list.length - MAX_CAPTURED);
    };
    keep(version, sent);
    // TRANSFER_APPROVED has no v1 form.
    if (eventInVersion(event, other)) keep(other, encodeWebhook(event, other, this.secret, Date.now()));
  }

  private record(
    job: Job,
    attempt: number,
    outcome: DeliveryOutcome,
    res: { status?: number; error?: string },
  ): void {
    const e = job.event;
    this.log.push({
      id: job.id,
      event: e.type,
      transferId: e.kind === 'transfer' ? e.transferId : '',
      batchTransferId: e.kind === 'bulk' ? e.batchTransferId : '',
      attempt,
      outcome,
      httpStatus: res.status,
      error: res.error,
      signatureValid: !job.badSignature,
      duplicate: job.duplicate,
      at: this.clock.now(),
    });
    if (this.log.length > MAX_LOGGED) this.log.splice(0, this.log.length - MAX_LOGGED);
  }
}
