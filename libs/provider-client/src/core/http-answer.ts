/** One HTTP answer as read off the wire, before any interpretation. */
export interface HttpAnswer {
  readonly statusCode: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly body: string;
}

export function header(answer: HttpAnswer, name: string): string | undefined {
  const v = answer.headers[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
}

/**
 * How long the provider asks us to wait: `x-ratelimit-retry` (seconds, v2) or `Retry-After`
 * (seconds or an HTTP date). Undefined when neither is usable.
 */
export function retryAfterMs(answer: HttpAnswer, now: number = Date.now()): number | undefined {
  const seconds = (raw: string | undefined): number | undefined => {
    if (raw === undefined || !/^\s*\d+(\.\d+)?\s*$/.test(raw)) return undefined;
    return Math.round(Number(raw) * 1000);
  };
  const x = seconds(header(answer, 'x-ratelimit-retry'));
  if (x !== undefined) return x;
  const ra = header(answer, 'retry-after');
  const s = seconds(ra);
  if (s !== undefined) return s;
  if (ra !== undefined) {
    const at = Date.parse(ra);
    if (!Number.isNaN(at)) return Math.max(0, at - now);
  }
  return undefined;
}

/** Lower-case, single-spaced, no trailing punctuation: provider messages vary in all three. */
/**
 * "Transfer Id already exists", "Batch transfer Id already exists", "transfer_id already exists",
 * "Duplicate transferId", "DUPLICATE_TRANSFER_ID"... Whatever its code and endpoint, such an
 * answer means the id reached the provider before: the caller must check the status (a
 * duplicate), never record a failure. A provider that says "duplicate" has the id; reading it as a
 * refusal (the catch-all 400 row) published FAILED for a transfer it held (issue 21).
 */
export function saysAlreadyExists(message: string | undefined): boolean {
  if (message === undefined) return false;
  const m = normaliseMessage(message);
  return /already[\s_-]+exist/.test(m) || /(^|[^a-z])duplicat(e|ed)([^a-z]|$)/.test(m);
}

/**
 * The provider's words for a refusal for the account's balance (issue 32): "Insufficient balance"
 * in a v1 message or reason, INSUFFICIENT_BALANCE as a v2 code, in any case.
 */
export function saysShortOfFunds(text: string | undefined | null): boolean {
  return text ? /insufficient[ _]balance/.test(normaliseMessage(text)) : false;
}

export function normaliseMessage(m: string): string {
  return m
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .replace(/[.!\s]+$/, '')
    .trim();
}

export function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}
