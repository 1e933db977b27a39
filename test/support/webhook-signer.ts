import { createHmac } from 'node:crypto';

/*
 * Signs webhooks as the provider does (shared/spec/provider-facts.md, "Webhooks"), written from
 * the spec and independently of the service's verifier, so a test can forge, replay and reorder.
 */

export interface V1Webhook {
  event: string;
  transferId?: string;
  referenceId?: string;
  utr?: string;
  acknowledged?: string;
  eventTime?: string;
  reason?: string;
}

/** A v1 form body: every field but `signature`, sorted by name, values concatenated, HMAC-SHA256, base64. */
export function signV1(w: V1Webhook, secret: string): string {
  const fields: Record<string, string> = {
    event: w.event,
    transferId: w.transferId ?? '',
    referenceId: w.referenceId ?? '',
    utr: w.utr ?? '',
    acknowledged: w.acknowledged ?? '0',
    eventTime: w.eventTime ?? new Date().toISOString(),
    reason: w.reason ?? '',
  };
  const text = Object.keys(fields)
    .sort()
    .map((k) => fields[k])
    .join('');
  const signature = createHmac('sha256', secret).update(text).digest('base64');
  return new URLSearchParams({ ...fields, signature }).toString();
}

export interface V2Webhook {
  type: string;
  event_time?: string;
  data: Record<string, unknown>;
}

export interface SignedV2 {
  body: string;
  headers: Record<string, string>;
}

/** A v2 JSON body and its headers: base64(HMAC-SHA256(timestamp + raw body)). */
export function signV2(w: V2Webhook, secret: string, timestampMs: number = Date.now()): SignedV2 {
  const body = JSON.stringify({
    type: w.type,
    event_time: w.event_time ?? new Date().toISOString(),
    data: w.data,
  });
  const ts = String(timestampMs);
  const signature = createHmac('sha256', secret)
    .update(ts + body)
    .digest('base64');
  return {
    body,
    headers: {
      'content-type': 'application/json',
      'x-webhook-timestamp': ts,
      'x-webhook-signature': signature,
    },
  };
}

/** Posts a v1 webhook; the HTTP status. */
export async function postV1(url: string, body: string): Promise<number> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body,
  });
  await res.arrayBuffer();
  return res.status;
}

/** Posts a signed v2 webhook; the HTTP status. */
export async function postV2(url: string, signed: SignedV2): Promise<number> {
  const res = await fetch(url, { method: 'POST', headers: signed.headers, body: signed.body });
  await res.arrayBuffer();
  return res.status;
}
