import { createHmac } from 'node:crypto';
import { type WebhookEvent, type WebhookVersion } from './webhook.types.js';

export interface EncodedWebhook {
  readonly body: string;
  readonly headers: Readonly<Record<string, string>>;
}

const hmac = (secret: string, text: string): string =>
  createHmac('sha256', secret).update(text, 'utf8').digest('base64');

/** v1 signature: the values of every field but `signature`, sorted by field name, concatenated. */
export function signV1(fields: Readonly<Record<string, string>>, secret: string): string {
  const text = Object.keys(fields)
    .filter((k) => k !== 'signature')
    .sort()
    .map((k) => fields[k] ?? '')
    .join('');
  return hmac(secret, text);
}

/** v2 signature: HMAC over the timestamp header's value followed by the raw body. */
export function signV2(timestamp: string, rawBody: string, secret: string): string {
  return hmac(secret, timestamp + rawBody);
}

const iso = (ms: number): string => new Date(ms).toISOString();

/** The v1 form fields, unsigned. Fields that do not apply are empty strings. */
export function v1Fields(e: WebhookEvent): Record<string, string> {
  const base = {
    event: e.type,
    transferId: '',
    referenceId: '',
    utr: '',
    acknowledged: '',
    eventTime: iso(e.at),
    reason: e.reason,
  };
  switch (e.kind) {
    case 'transfer':
      return {
        ...base,
        transferId: e.transferId,
        referenceId: e.referenceId,
        utr: e.utr,
        acknowledged: String(e.acknowledged),
      };
    case 'account':
      return { ...base, utr: e.utr, ...e.fields };
    case 'bulk':
      return { ...base, batchTransferId: e.batchTransferId };
  }
}

/** The v2 JSON body. */
export function v2Body(e: WebhookEvent): Record<string, unknown> {
  const data =
    e.kind === 'transfer'
      ? {
          transferId: e.transferId,
          referenceId: e.referenceId,
          utr: e.utr,
          acknowledged: e.acknowledged,
          reason: e.reason,
          status: e.status,
          amount: e.amount,
        }
      : e.kind === 'bulk'
        ? { batchTransferId: e.batchTransferId, reason: e.reason }
        : { utr: e.utr, reason: e.reason, ...e.fields };
  return { type: e.type, event_time: iso(e.at), data };
}

/**
 * The request the provider sends. `signingSecret` is the client secret (or, for the
 * bad-signature fault, something else); `timestampMs` is the v2 `x-webhook-timestamp`.
 */
export function encodeWebhook(
  e: WebhookEvent,
  version: WebhookVersion,
  signingSecret: string,
  timestampMs: number,
): EncodedWebhook {
  if (version === 'v1') {
    const fields = v1Fields(e);
    const form = new URLSearchParams({ ...fields, signature: signV1(fields, signingSecret) });
    return {
      body: form.toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    };
  }
  const body = JSON.stringify(v2Body(e));
  const timestamp = String(timestampMs);
  return {
    body,
    headers: {
      'content-type': 'application/json',
      'x-webhook-timestamp': timestamp,
      'x-webhook-signature': signV2(timestamp, body, signingSecret),
    },
  };
}
