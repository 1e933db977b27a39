import { createHmac } from 'node:crypto';
import { chargedFee } from '../core/fees.js';
import { formatPaise, type Paise } from '../core/money.js';
import { type TransferEvent, type WebhookEvent, type WebhookVersion } from './webhook.types.js';

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

/**
 * A JSON number written from its decimal text (`JSON.rawJSON`): the v2 amount is a JSON number
 * on the wire, and money never passes through a float on its way there.
 */
const { rawJSON } = JSON as unknown as { readonly rawJSON: (text: string) => unknown };

/** A fee as a JSON number: `0` when none (as always before fees), else its decimal text (`3.54`). */
const feeNumber = (p: Paise): unknown => (p === 0n ? 0 : rawJSON(formatPaise(p)));

/** A UTC time as v2 transfer objects write it: `2026-11-24T08:09:25Z`. */
const v2Utc = (ms: number): string => `${new Date(ms).toISOString().slice(0, 19)}Z`;

/** v2 `event_time`: `YYYY-MM-DDTHH:MM:SS`, no zone, India time (provider-v2.md, "Webhooks V2"). */
export const v2EventTime = (ms: number): string => new Date(ms + 330 * 60_000).toISOString().slice(0, 19);

const DESCRIPTIONS: Readonly<Record<string, string>> = {
  SENT_TO_BENEFICIARY: 'Transfer sent to the beneficiary bank; credit confirmation pending',
  COMPLETED: 'Payout initiated via the partner bank',
};

/** Last four characters shown, as the provider shows account numbers. */
const maskAccount = (a: string): string => `${'X'.repeat(Math.max(0, a.length - 4))}${a.slice(-4)}`;
const maskVpa = (vpa: string): string => {
  const at = vpa.indexOf('@');
  return at <= 2 ? `***${vpa.slice(Math.max(at, 0))}` : `${vpa.slice(0, 2)}***${vpa.slice(at)}`;
};

/**
 * A transfer event's `data` on v2: the v2 transfer object (snake_case, the provider's own id as
 * `cf_transfer_id`, the amount a JSON number) at the event's step. A refused batch entry, which
 * the provider never made a transfer of, has its ids, status and amount only.
 */
export function v2TransferObject(e: TransferEvent): Record<string, unknown> {
  const t = e.record;
  const statusCode = e.statusCode ?? e.status;
  const head = {
    transfer_id: e.transferId,
    ...(t ? { cf_transfer_id: t.svcTransferId } : {}),
    status: e.status,
    status_code: statusCode,
    status_description: DESCRIPTIONS[statusCode] ?? (e.reason || statusCode),
  };
  if (!t) return { ...head, transfer_amount: rawJSON(e.amount) };
  const fee = chargedFee(t.fee, e.status);
  const instrument = t.vpa
    ? { vpa: maskVpa(t.vpa) }
    : t.bankAccount
      ? { bank_account_number: maskAccount(t.bankAccount), ifsc: t.ifsc }
      : {};
  return {
    ...head,
    beneficiary_details: { beneficiary_id: t.beneId, beneficiary_instrument_details: instrument },
    transfer_amount: rawJSON(e.amount),
    transfer_service_charge: feeNumber(fee.charge),
    transfer_service_tax: feeNumber(fee.tax),
    transfer_mode: t.mode,
    ...(e.utr ? { transfer_utr: e.utr } : {}),
    ...(t.paymentInstrumentId ? { fundsource_id: t.paymentInstrumentId } : {}),
    added_on: v2Utc(t.addedOn),
    updated_on: v2Utc(e.at),
  };
}

/** The v2 JSON body: `{type, event_time, data}` as the provider sends it. */
export function v2Body(e: WebhookEvent): Record<string, unknown> {
  const data =
    e.kind === 'transfer'
      ? v2TransferObject(e)
      : e.kind === 'bulk'
        ? {
            batch_transfer_id: e.batchTransferId,
            ...(e.svcBatchTransferId ? { cf_batch_transfer_id: e.svcBatchTransferId } : {}),
            status: 'REJECTED',
            status_description: e.reason,
          }
        : { utr: e.utr, reason: e.reason, ...e.fields };
  return { type: e.type, event_time: v2EventTime(e.at), data };
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
