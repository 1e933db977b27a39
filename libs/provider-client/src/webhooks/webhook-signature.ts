import { createHmac, timingSafeEqual } from 'node:crypto';

/*
 * The provider's webhook signatures (shared/spec/provider-facts.md, "Webhooks"), keyed with the
 * account's client secret. Verified over the bytes as received: a v1 body is split into its
 * fields without any other normalisation, a v2 body is signed as the raw text.
 */

/** Compares a received base64 signature with the expected MAC in constant time. */
function sameMac(expected: Buffer, receivedBase64: string): boolean {
  // A wrong length (or bad base64) cannot match; the MAC is compared only at its own length.
  const received = Buffer.from(receivedBase64, 'base64');
  if (received.length !== expected.length) return false;
  return timingSafeEqual(received, expected);
}

function hmac(secret: string, text: string): Buffer {
  return createHmac('sha256', secret).update(text, 'utf8').digest();
}

/**
 * v1: the fields other than `signature`, sorted by name, their values concatenated, HMAC-SHA256
 * with the client secret, base64. Every field received counts, also ones we do not read.
 */
export function v1SignatureValid(fields: ReadonlyMap<string, string>, secret: string): boolean {
  const signature = fields.get('signature');
  if (!signature) return false;
  const names = [...fields.keys()].filter((k) => k !== 'signature').sort();
  const text = names.map((n) => fields.get(n) ?? '').join('');
  return sameMac(hmac(secret, text), signature);
}

/** v2: base64(HMAC-SHA256(timestamp + raw body)) with the client secret. */
export function v2SignatureValid(
  timestamp: string,
  rawBody: Buffer,
  signature: string,
  secret: string,
): boolean {
  if (!timestamp || !signature) return false;
  const mac = createHmac('sha256', secret).update(timestamp, 'utf8').update(rawBody).digest();
  return sameMac(mac, signature);
}

/**
 * The fields of a v1 form body, or undefined when a field repeats (which value was signed would
 * be a guess). URLSearchParams decodes `+` and percent escapes as a form does.
 */
export function v1Fields(rawBody: Buffer): Map<string, string> | undefined {
  const out = new Map<string, string>();
  for (const [k, v] of new URLSearchParams(rawBody.toString('utf8'))) {
    if (out.has(k)) return undefined;
    out.set(k, v);
  }
  return out;
}
