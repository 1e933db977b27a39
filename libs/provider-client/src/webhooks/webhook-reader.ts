import { z } from 'zod';
import { type ProviderSubState } from '#contracts';
import { SUB_STATE_HINT_EVENT, WEBHOOK_EVENT_SUB_STATE } from '../core/status-mapping.js';
import { transferFee } from '../core/transfer-fee.js';
import {
  deliveryTimestampMs,
  eventTimeWithin,
  maskWebhookText,
  parseEventTime,
  unexpectedV1Fields,
} from './webhook-shape.js';
import { v1Fields, v1SignatureValid, v2SignatureValid } from './webhook-signature.js';

/*
 * "Read a webhook" (issue 22, item 5): the provider-specific part of a webhook delivery (how each
 * API generation signs it, what fields it sends per event, how they are named) stays here, in the
 * connector; the pipeline gets a verified hint in its own terms, or a refusal, and keeps what is
 * its own: storing, deduplicating, deciding (ADR 0013).
 */

export type WebhookApiVersion = 'v1' | 'v2';

/** One delivery as the HTTP edge received it: nothing parsed. */
export interface RawWebhookDelivery {
  readonly version: WebhookApiVersion;
  /** Lower-case header names. */
  readonly headers: Readonly<Record<string, string | undefined>>;
  readonly rawBody: Buffer;
}

/**
 * What a verified webhook says, in the service's terms: never the provider's field names. Every
 * value is text (a v2 number is kept as its JSON literal, never read through a float); free text
 * (status, status code, reason) is masked, as it may quote an account number.
 */
export interface WebhookHint {
  readonly event: string;
  readonly transferId?: string;
  readonly batchTransferId?: string;
  /** v1 `referenceId`: the provider's reference, kept on the payout as its referenceId. */
  readonly referenceId?: string;
  /** v2 `cf_transfer_id`: the provider's id, kept on the payout as its svcTransferId. */
  readonly svcTransferId?: string;
  /** v2 `cf_batch_transfer_id`. */
  readonly svcBatchTransferId?: string;
  readonly utr?: string;
  readonly acknowledged?: string;
  /** The provider's status word (SUCCESS, FAILED, ...). */
  readonly status?: string;
  /** v2 `status_code` (SENT_TO_BENEFICIARY, COMPLETED, INSUFFICIENT_BALANCE, ...). */
  readonly statusCode?: string;
  /** Decimal rupees as sent (v2 `transfer_amount`'s literal): compared exactly, never as a float. */
  readonly amount?: string;
  readonly reason?: string;
  /** The event time as sent. */
  readonly eventTime?: string;
  /**
   * Where the transfer waits at the provider, for a hint that announces no state (event
   * SUB_STATE_HINT_EVENT): e.g. `approved` for the provider's TRANSFER_APPROVED (issue 29).
   */
  readonly subState?: ProviderSubState;
  /**
   * v2 `transfer_service_charge` and `transfer_service_tax` (issue 32), decimal text when sent as
   * one: the transfer's fee, kept on a payout the webhook settles. Not part of the webhook's identity.
   */
  readonly feeCharge?: string;
  readonly feeTax?: string;
}

/**
 * Why a delivery is not a hint. `bad_signature` and `stale` do not verify; the others verify but
 * are not kept: `malformed` (no event type), `unexpected_field` (a v1 name the provider does not
 * send for that event), `untimely` (a v1 event time out of bounds).
 */
export type WebhookRefusal = 'bad_signature' | 'stale' | 'malformed' | 'unexpected_field' | 'untimely';

export type WebhookReading = { readonly hint: WebhookHint } | { readonly refusal: WebhookRefusal };

export interface WebhookReaderSettings {
  /** v2: the most |now - x-webhook-timestamp| accepted. */
  readonly replayWindowMs: number;
  /** v1: the oldest `eventTime` kept (how late the provider may deliver, and a replay bound). */
  readonly v1MaxAgeMs: number;
  /** v1: how far ahead of our clock an `eventTime` may be (clock skew). */
  readonly v1MaxAheadMs: number;
}

/** The port the pipeline calls: one implementation per API generation. */
export interface WebhookReader {
  /** `secret`: the account's client secret, the webhook key. `now`: epoch ms. */
  read(delivery: RawWebhookDelivery, secret: string, now: number): WebhookReading;
}

/** A JSON value the provider may send as text, number or boolean, as text; empty is absent. */
function text(v: unknown): string | undefined {
  if (typeof v === 'string') return v.length > 0 ? v : undefined;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return undefined;
}

/** Leaves out what is absent, so a hint never carries `key: undefined` (it is kept as JSON). */
function compact(
  h: { readonly event: string } & { readonly [K in keyof WebhookHint]?: WebhookHint[K] | undefined },
): WebhookHint {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) if (v !== undefined) out[k] = v;
  return { ...out, event: h.event };
}

/**
 * A hint whose provider event announces only a sub-state (TRANSFER_APPROVED) becomes one in the
 * service's words: event SUB_STATE_HINT_EVENT, the sub-state, the ids, amount and time that match
 * it to its payout; no status, status code or reason to be read as a state change.
 */
function translated(hint: WebhookHint): WebhookHint {
  if (!Object.hasOwn(WEBHOOK_EVENT_SUB_STATE, hint.event)) return hint;
  const { status: _s, statusCode: _c, reason: _r, acknowledged: _a, ...rest } = hint;
  return { ...rest, event: SUB_STATE_HINT_EVENT, subState: WEBHOOK_EVENT_SUB_STATE[hint.event] };
}

const refuse = (refusal: WebhookRefusal): WebhookReading => ({ refusal });

/**
 * v1: a form body signed over its values only (sorted by name, run together). The signature binds
 * no value to its name, so a name the provider does not send for the event is a body someone
 * re-arranged, and an event time out of bounds a replay (ADR 0013).
 */
export function v1WebhookReader(s: WebhookReaderSettings): WebhookReader {
  return {
    read(delivery, secret, now) {
      const fields = v1Fields(delivery.rawBody);
      if (!fields || !v1SignatureValid(fields, secret)) return refuse('bad_signature');
      const event = fields.get('event');
      if (!event) return refuse('malformed');
      if (unexpectedV1Fields(event, fields.keys()).length > 0) return refuse('unexpected_field');
      const eventTime = text(fields.get('eventTime'));
      const at = parseEventTime(eventTime);
      if (at === undefined || !eventTimeWithin(at, now, s.v1MaxAgeMs, s.v1MaxAheadMs)) {
        return refuse('untimely');
      }
      return {
        hint: translated(
          compact({
            event,
            transferId: text(fields.get('transferId')),
            referenceId: text(fields.get('referenceId')),
            utr: text(fields.get('utr')),
            acknowledged: text(fields.get('acknowledged')),
            reason: maskWebhookText(text(fields.get('reason'))),
            eventTime,
          }),
        ),
      };
    },
  };
}

const v2Envelope = z.object({
  type: z.string().min(1),
  event_time: z.string().optional(),
  data: z.record(z.string(), z.unknown()).optional(),
});

/**
 * A v2 body as JSON, every number kept as its literal text (JSON.parse's source text access): an
 * amount or an id is never read through a float. Undefined when the body is not JSON.
 */
export function parseJsonKeepingNumbers(raw: string): unknown {
  try {
    return JSON.parse(raw, (_key: string, value: unknown, context?: { source?: string }) =>
      typeof value === 'number' && context?.source !== undefined ? context.source : value,
    ) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * v2: `x-webhook-signature` = base64(HMAC-SHA256(x-webhook-timestamp + raw body)), then the
 * replay window; the body is `{type, event_time, data}` where a transfer event's `data` is the v2
 * transfer object and BULK_TRANSFER_REJECTED's the batch ids (provider-v2.md, "Webhooks V2").
 */
export function v2WebhookReader(s: WebhookReaderSettings): WebhookReader {
  return {
    read(delivery, secret, now) {
      const timestamp = delivery.headers['x-webhook-timestamp'] ?? '';
      const signature = delivery.headers['x-webhook-signature'] ?? '';
      if (!v2SignatureValid(timestamp, delivery.rawBody, signature, secret)) return refuse('bad_signature');
      // Checked after the signature, so the window cannot be probed without the key.
      // Seconds or milliseconds: the interface does not say, so the magnitude does.
      const at = deliveryTimestampMs(timestamp);
      if (at === undefined || Math.abs(now - at) > s.replayWindowMs) return refuse('stale');
      const body = v2Envelope.safeParse(parseJsonKeepingNumbers(delivery.rawBody.toString('utf8')));
      if (!body.success) return refuse('malformed');
      return { hint: translated(v2Hint(body.data.type, text(body.data.event_time), body.data.data ?? {})) };
    },
  };
}

/** The fields of a verified v2 body, in the service's terms. */
export function v2Hint(
  event: string,
  eventTime: string | undefined,
  data: Readonly<Record<string, unknown>>,
): WebhookHint {
  return compact({
    event,
    transferId: text(data['transfer_id']),
    svcTransferId: text(data['cf_transfer_id']),
    batchTransferId: text(data['batch_transfer_id']),
    svcBatchTransferId: text(data['cf_batch_transfer_id']),
    utr: text(data['transfer_utr']),
    status: maskWebhookText(text(data['status'])),
    statusCode: maskWebhookText(text(data['status_code'])),
    reason: maskWebhookText(text(data['status_description'])),
    amount: text(data['transfer_amount']),
    ...feeFields(data),
    eventTime,
  });
}

/** The fee a v2 transfer object carries, as the hint's fields (none when the charge is not decimal text). */
function feeFields(data: Readonly<Record<string, unknown>>): Pick<WebhookHint, 'feeCharge' | 'feeTax'> {
  const fee = transferFee(text(data['transfer_service_charge']), text(data['transfer_service_tax']));
  return fee ? { feeCharge: fee.charge, feeTax: fee.tax } : {};
}

/** One reader per API generation: the registry the pipeline's intake looks a delivery's up in. */
export function webhookReaders(s: WebhookReaderSettings): Readonly<Record<WebhookApiVersion, WebhookReader>> {
  return { v1: v1WebhookReader(s), v2: v2WebhookReader(s) };
}
