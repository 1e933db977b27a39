import { maskFreeText } from '#observability';

/*
 * What a verified webhook may look like (shared/spec/provider-facts.md, "Webhooks"), as data the
 * intake checks and the spec walks. The v1 signature covers the values only, sorted by name and
 * joined with no separator: it binds neither a value to its name nor the boundary between two
 * values, so a verified v1 body is only as good as these checks, and never applies a state by
 * itself (ADR 0013).
 */

/** The seven fields every v1 webhook carries (the signature aside). */
const V1_BASE = ['event', 'transferId', 'referenceId', 'utr', 'acknowledged', 'eventTime', 'reason'] as const;

/**
 * The v1 field names the provider sends, per event type; any other name is refused. The account
 * notices carry one or two fields of their own beside the base ones (as the sandbox's v1 sender
 * does: LOW_BALANCE_ALERT its balance and threshold, CREDIT_CONFIRMATION the amount credited,
 * BENEFICIARY_INCIDENT the beneficiary). An event type not listed here gets the base set: it is
 * kept and ignored, as before.
 */
export const V1_FIELDS: Readonly<Record<string, readonly string[]>> = {
  TRANSFER_SUCCESS: V1_BASE,
  TRANSFER_FAILED: V1_BASE,
  TRANSFER_REVERSED: V1_BASE,
  TRANSFER_ACKNOWLEDGED: V1_BASE,
  TRANSFER_REJECTED: V1_BASE,
  CREDIT_CONFIRMATION: [...V1_BASE, 'amount'],
  BENEFICIARY_INCIDENT: [...V1_BASE, 'beneId'],
  LOW_BALANCE_ALERT: [...V1_BASE, 'currentBalance', 'threshold'],
};

/** The received v1 names (signature aside) the provider does not send for this event. */
export function unexpectedV1Fields(event: string, names: Iterable<string>): string[] {
  const allowed = Object.hasOwn(V1_FIELDS, event) ? (V1_FIELDS[event] ?? V1_BASE) : V1_BASE;
  return [...names].filter((n) => n !== 'signature' && !allowed.includes(n));
}

/** India Standard Time, UTC+05:30 all year: the zone of the provider's dates that carry none. */
const IST_OFFSET_MS = 330 * 60_000;
const ZONED = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;
const ZONELESS = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?$/;

/**
 * A webhook's event time in epoch ms, or undefined when it is not one of the provider's forms:
 * ISO 8601 with a zone (`2026-11-24T08:09:25.000Z`, `…+05:30`), read as written; or a date with
 * no zone (`2026-11-24 13:39:25`, `2026-11-24T13:39:25`), read as India time (UTC+05:30), the
 * zone of every other zone-less date the provider sends (status answers, v2 dates). Strict on
 * purpose: anything else (a trailing character a re-arranged v1 body moved in) is unreadable.
 */
export function parseEventTime(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  if (ZONED.test(text)) {
    const t = Date.parse(text);
    return Number.isFinite(t) ? t : undefined;
  }
  const m = ZONELESS.exec(text);
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s, frac] = m;
  const ms = frac ? Math.floor(Number(`0${frac}`) * 1000) : 0;
  const utc = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s), ms);
  // Date.UTC rolls 2026-02-30 over into March: a date that does not exist is not a time.
  const back = new Date(utc);
  if (back.getUTCDate() !== Number(d) || back.getUTCMonth() !== Number(mo) - 1) return undefined;
  return utc - IST_OFFSET_MS;
}

/** Whether an event time lies within [now - maxAgeMs, now + maxAheadMs]. */
export function eventTimeWithin(at: number, now: number, maxAgeMs: number, maxAheadMs: number): boolean {
  return at >= now - maxAgeMs && at <= now + maxAheadMs;
}

/**
 * Below this, an `x-webhook-timestamp` is in seconds (1e11 s is the year 5138; 1e11 ms is 1973):
 * the interface does not say which, and refusing every webhook for the wrong guess would have the
 * provider disable the endpoint.
 */
const SECONDS_BELOW = 1e11;

/** The v2 delivery timestamp in epoch ms, read as seconds or milliseconds by its magnitude. */
export function deliveryTimestampMs(header: string): number | undefined {
  if (!/^\d{1,16}(\.\d{1,6})?$/.test(header)) return undefined;
  const n = Number(header);
  if (!Number.isFinite(n)) return undefined;
  return n < SECONDS_BELOW ? Math.round(n * 1000) : n;
}

const MAX_TEXT = 300;

/**
 * A webhook's free text (reason, status) as it may be kept, published and logged: digit runs that
 * may be account numbers keep their last 4, e-mail addresses and VPAs their first two characters
 * (as the provider-client path masks the same text), and the length is bounded.
 */
export function maskWebhookText(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  const masked = maskFreeText(text);
  return masked.length > MAX_TEXT ? `${masked.slice(0, MAX_TEXT)}…` : masked;
}
