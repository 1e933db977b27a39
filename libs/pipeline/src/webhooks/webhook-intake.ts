import { createHash } from 'node:crypto';
import type pg from 'pg';
import { type NewWebhook, type WebhookApiVersion, type WebhookFields, type WebhookRepository } from '#ledger';
import { type AppLogger } from '#observability';
import {
  type ProviderWebhooks,
  type WebhookHint,
  type WebhookReader,
  type WebhookReaderSettings,
} from '#provider-client';
import { LogSampler } from './refusal-guards.js';
import { type WebhookMetrics } from './webhooks.metrics.js';

/** One delivery as the HTTP edge received it: nothing parsed but the path. */
export interface WebhookDelivery {
  readonly version: WebhookApiVersion;
  readonly accountId: string;
  /** Lower-case header names. */
  readonly headers: Readonly<Record<string, string | undefined>>;
  readonly rawBody: Buffer;
}

export type DeliveryResult =
  | 'accepted'
  | 'duplicate'
  | 'bad_signature'
  | 'stale'
  | 'unknown_account'
  | 'other_version'
  | 'malformed'
  | 'unexpected_field'
  | 'untimely'
  | 'too_large'
  | 'rate_limited';

/** The edge maps a result to its HTTP status once (webhooks-server.ts). */
export const DELIVERY_STATUS: Readonly<Record<DeliveryResult, number>> = {
  accepted: 200,
  duplicate: 200,
  // A verified body we cannot read is answered 200 all the same: the provider would only send it
  // again, and five failures in a row disable the endpoint for every webhook (counted, logged).
  malformed: 200,
  // Verified v1 bodies with a name the provider does not document, or an event time out of
  // bounds: not kept (a re-arranged or replayed capture), answered 200 for the same reason.
  unexpected_field: 200,
  untimely: 200,
  bad_signature: 401,
  stale: 401,
  unknown_account: 404,
  // The account's webhook version is pinned (PROVIDER_WEBHOOK_VERSION / webhookVersion) to the other one.
  other_version: 404,
  too_large: 413,
  // Past WEBHOOKS_REFUSALS_PER_SOURCE refusals in a window, with Retry-After (webhooks-server.ts).
  rate_limited: 429,
};

/** Results that refuse a delivery (counted against its source address). */
export function isRefusal(r: DeliveryResult): boolean {
  return DELIVERY_STATUS[r] >= 400;
}

export interface WebhookIntakeSettings extends WebhookReaderSettings {
  readonly maxBodyBytes: number;
  /** At most one warn line per account, version and refusal in this interval. */
  readonly logSampleMs: number;
}

export interface WebhookIntakeDeps {
  readonly pool: pg.Pool;
  readonly webhooks: WebhookRepository;
  /** Each configured provider account's client secret: the webhook key. */
  readonly secrets: ReadonlyMap<string, string>;
  /**
   * Accounts whose webhook version is pinned: a delivery in the other version is refused (404)
   * before it is read. An account not listed takes both (its dashboard may be mid-switch).
   */
  readonly pinnedVersions?: ReadonlyMap<string, WebhookApiVersion>;
  readonly metrics: WebhookMetrics;
  readonly logger: AppLogger;
  /** Called after a new webhook is committed (the worker in this process starts on it). */
  readonly onStored?: () => void;
  readonly now?: () => number;
  /**
   * The provider's webhooks (the port's, libs/provider-client): its readers verify a delivery of
   * each API generation and read it in the service's terms, or refuse it; its meaning says what a
   * verified one is about; its labels name the event types counted.
   */
  readonly provider: ProviderWebhooks;
}

/**
 * Receives a webhook: verifies it (signature over the raw body, v2's replay window), keeps it
 * once (deduplicated by its identity) and answers. Nothing else happens before the answer: the
 * worker applies it from the table (WebhookHintWorker).
 */
export class WebhookIntake {
  private readonly now: () => number;
  private readonly sampler: LogSampler;
  private readonly readers: Readonly<Record<WebhookApiVersion, WebhookReader>>;

  constructor(
    private readonly d: WebhookIntakeDeps,
    private readonly s: WebhookIntakeSettings,
  ) {
    this.now = d.now ?? Date.now;
    this.sampler = new LogSampler(s.logSampleMs, this.now);
    this.readers = d.provider.readers(s);
  }

  get maxBodyBytes(): number {
    return this.s.maxBodyBytes;
  }

  /** An account has an endpoint only when it is configured (its secret is the key). */
  knows(accountId: string): boolean {
    return this.d.secrets.has(accountId);
  }

  /** A body over the size limit, refused before it is read in full. */
  refuseTooLarge(version: WebhookApiVersion): DeliveryResult {
    this.d.metrics.received.inc({ version, type: 'unverified', result: 'too_large' });
    return 'too_large';
  }

  /** A refusal past its source's limit: answered 429 instead, counted, not logged again. */
  refuseRateLimited(version: WebhookApiVersion): DeliveryResult {
    this.d.metrics.received.inc({ version, type: 'unverified', result: 'rate_limited' });
    return 'rate_limited';
  }

  /**
   * Verifies, keeps and answers one delivery. `overLimit`: its source has had its refusals for
   * this window (webhooks-server.ts): a delivery that verifies is handled all the same (a
   * genuine one is never starved), a refusal becomes `rate_limited`, counted but not logged.
   */
  async receive(delivery: WebhookDelivery, overLimit = false): Promise<DeliveryResult> {
    const { version } = delivery;
    const verified = this.verify(delivery);
    if (typeof verified === 'string' && overLimit && isRefusal(verified)) {
      return this.refuseRateLimited(version);
    }
    if (typeof verified === 'string') {
      const verifiedType = verified === 'unexpected_field' || verified === 'untimely';
      this.d.metrics.received.inc({ version, type: verifiedType ? 'other' : 'unverified', result: verified });
      if (verified !== 'unknown_account') {
        this.warnSampled(
          delivery.accountId,
          version,
          verified,
          verifiedType
            ? 'webhook verified but not kept: a v1 field name the provider does not send, or an event time out of bounds'
            : 'webhook refused: it does not verify',
        );
      }
      return verified;
    }
    if (verified === undefined) {
      this.d.metrics.received.inc({ version, type: 'other', result: 'malformed' });
      this.warnSampled(
        delivery.accountId,
        version,
        'malformed',
        'webhook verified but unreadable (no event type); answered 200 and dropped',
      );
      return 'malformed';
    }
    const type = this.d.provider.label(verified.event);
    const id = await this.d.webhooks.insert(this.d.pool, verified);
    const result = id ? 'accepted' : 'duplicate';
    this.d.metrics.received.inc({ version, type, result });
    if (id) this.d.onStored?.();
    return result;
  }

  /**
   * A warn line for a refusal, at most one per account, version and result in the sampling
   * interval (anyone can send these: unsampled, they would flood the logs); the line says how
   * many were left out since the last one. The metric counts every one.
   */
  private warnSampled(accountId: string, version: WebhookApiVersion, result: string, msg: string): void {
    const suppressed = this.sampler.take(`${accountId}/${version}/${result}`);
    if (suppressed === undefined) return;
    this.d.logger.warn({ accountId, version, result, suppressed }, msg);
  }

  /** The webhook to keep; a refusal; or undefined for a verified body with no event in it. */
  private verify(delivery: WebhookDelivery): NewWebhook | Exclude<DeliveryResult, 'accepted'> | undefined {
    const secret = this.d.secrets.get(delivery.accountId);
    if (secret === undefined) return 'unknown_account';
    const pinned = this.d.pinnedVersions?.get(delivery.accountId);
    if (pinned !== undefined && pinned !== delivery.version) return 'other_version';
    const reading = this.readers[delivery.version].read(delivery, secret, this.now());
    if ('refusal' in reading) return reading.refusal === 'malformed' ? undefined : reading.refusal;
    return this.webhook(delivery, reading.hint);
  }

  /**
   * What is kept of a verified webhook: what matching and the ledger need, no more. The free
   * text (reason, status, status code), masked by the reader, only for transfer events, whose
   * state may be written from it. A notice's text is not kept at all (its event carries none,
   * ADR 0013).
   */
  private webhook(delivery: WebhookDelivery, hint: WebhookHint): NewWebhook {
    const transfer = this.d.provider.meaning(hint.event, hint).about === 'transfer';
    const fields = compact({
      transferId: hint.transferId,
      batchTransferId: hint.batchTransferId,
      referenceId: hint.referenceId,
      svcTransferId: hint.svcTransferId,
      utr: hint.utr,
      acknowledged: hint.acknowledged,
      reason: transfer ? hint.reason : undefined,
      status: transfer ? hint.status : undefined,
      statusCode: transfer ? hint.statusCode : undefined,
      amount: hint.amount,
      eventTime: hint.eventTime,
      subState: hint.subState,
      feeCharge: hint.feeCharge,
      feeTax: hint.feeTax,
    });
    const t = this.d.provider.eventTimeOf(fields.eventTime);
    return {
      accountId: delivery.accountId,
      apiVersion: delivery.version,
      identity: webhookIdentity(delivery.version, hint.event, fields),
      event: hint.event,
      transferId: fields.transferId ?? null,
      batchTransferId: fields.batchTransferId ?? null,
      fields,
      eventTime: t === undefined ? null : new Date(t),
    };
  }
}

function compact(f: Record<string, string | undefined>): WebhookFields {
  return Object.fromEntries(Object.entries(f).filter(([, v]) => v !== undefined));
}

/**
 * A webhook's identity: what it says, not how it was delivered (the signature and the v2
 * delivery timestamp are left out, so a redelivery signed again is still the same webhook).
 * Unkeyed on purpose: it is a lookup key, kept in the row beside the same fields in clear
 * (already masked free text, ids, amounts), so it reveals nothing the row does not (issue 30).
 */
export function webhookIdentity(version: WebhookApiVersion, event: string, f: WebhookFields): string {
  const parts = [
    version,
    event,
    f.transferId,
    f.batchTransferId,
    f.eventTime,
    f.status,
    f.referenceId,
    f.utr,
    f.acknowledged,
    f.reason,
    f.amount,
    // v2's own fields, only where present: the identity of a v1 webhook is as it always was.
    ...(f.svcTransferId !== undefined || f.statusCode !== undefined ? [f.svcTransferId, f.statusCode] : []),
  ].map((p) => p ?? null);
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex');
}
