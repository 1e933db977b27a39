import {
  ACCOUNT_MIN_DIGITS,
  maskAccountNumber,
  maskAddresses,
  maskDigitRuns,
  redactDeep,
} from '#observability';

// The value may be a string (perhaps cut short) or, in text that is not JSON, a bare word.
const SECRET_VALUE =
  /("(?:[a-z_]*token|cryptogram|[a-z_]*secret|authorization|password)"\s*:\s*)(?:"(?:[^"\\]|\\.)*("?)|[^\s,}\]"]+)/gi;

/** Ids of a command, kept whole so support can find it (our own ids, never a person's). */
const ID_KEYS = new Set(
  ['type', 'transferId', 'batchTransferId', 'withdrawalId', 'requestId', 'accountId', 'queryId'].map(norm),
);
/** Keys that hold an account or instrument under any name (bankAccount, rechargeAccount, acctNo, iban, upiId). */
const ACCOUNT_KEY = /account|acct|iban|vpa|upi/;

function norm(k: string): string {
  return k.toLowerCase().replace(/[^a-z0-9]/g, '');
}

const digits = (s: string) => maskDigitRuns(s, ACCOUNT_MIN_DIGITS);

const vpas = maskAddresses;

/**
 * After the logger's redaction (secrets by key, known personal fields): whatever may still be an
 * account number is masked, whatever its key or type. A number of 6 digits or more becomes a
 * masked string; any value under an account-like key is masked whole; every other string (and
 * key) has its runs of 6 digits or more and its VPAs masked. A dead letter is for reading, not replaying.
 */
function maskAccounts(v: unknown, key = ''): unknown {
  const k = norm(key);
  if (typeof v === 'number' || typeof v === 'bigint') {
    const text = String(v);
    if (ACCOUNT_KEY.test(k) && k !== 'accountid') return maskAccountNumber(text);
    return digits(text) === text ? v : digits(text);
  }
  if (typeof v === 'string') {
    if (ID_KEYS.has(k)) return v;
    if (ACCOUNT_KEY.test(k)) return maskAccountNumber(v);
    return vpas(digits(v));
  }
  if (Array.isArray(v)) return v.map((x) => maskAccounts(x, key));
  if (v && typeof v === 'object') {
    return Object.fromEntries(Object.entries(v).map(([ck, cv]) => [digits(ck), maskAccounts(cv, ck)]));
  }
  return v;
}

/**
 * A field of ID_KEYS with a string value, in text that may not parse: `"transferId":"PO-2026112700001"`.
 * Ids are ours and the producer's, never a person's: kept whole, so an operator finds the command.
 */
const ID_FIELD =
  /"(type|transferId|batchTransferId|withdrawalId|requestId|accountId|queryId)"\s*:\s*"([^"\\]{0,128})"/g;

const maskText = (s: string) => vpas(digits(s));

/**
 * Text that is not JSON (cut short, malformed, a Kafka key): secrets, digit runs and VPAs by
 * pattern; the ids of ID_KEYS are kept whole.
 */
export function scrubText(text: string): string {
  const t = text.replace(
    SECRET_VALUE,
    (_m, prefix: string, close: string | undefined) => `${prefix}"[REDACTED]${close ?? '"'}`,
  );
  let out = '';
  let last = 0;
  for (const m of t.matchAll(ID_FIELD)) {
    out += maskText(t.slice(last, m.index)) + m[0];
    last = m.index + m[0].length;
  }
  return last === 0 ? maskText(t) : out + maskText(t.slice(last));
}

/**
 * The ids a message names (transferId, batchTransferId, withdrawalId, queryId, requestId), read
 * by pattern so a message that does not parse still gives them: a dead letter's Kafka key that
 * is one of them is an id, kept whole (issue 30, defect 6).
 */
export function idsNamedIn(text: string): ReadonlySet<string> {
  const ids = new Set<string>();
  for (const m of text.matchAll(ID_FIELD)) if (m[1] !== 'type' && m[1] !== 'accountId') ids.add(m[2] ?? '');
  return ids;
}

/**
 * What of a rejected message may be kept: the original bytes when they hold nothing sensitive,
 * otherwise the same message with secret values redacted and account numbers and VPAs masked.
 * Parsed JSON goes through the logger's redaction and then account masking; text that does not
 * parse (truncated JSON) is scrubbed by pattern. The result may be larger than the input (bytes
 * that are not UTF-8 come back as U+FFFD): the caller limits the size of what it sends.
 */
export function scrubForDeadLetter(value: Buffer): { bytes: Buffer; scrubbed: boolean } {
  const text = value.toString('utf8');
  let out: string;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    out = scrubText(text);
    return out === text ? { bytes: value, scrubbed: false } : { bytes: Buffer.from(out), scrubbed: true };
  }
  out = JSON.stringify(maskAccounts(redactDeep(parsed)));
  return sameJson(parsed, out)
    ? { bytes: value, scrubbed: false }
    : { bytes: Buffer.from(out), scrubbed: true };
}

/** Whether `parsed` serialises to `text`; nesting too deep to serialise was cut, so it differs. */
function sameJson(parsed: unknown, text: string): boolean {
  try {
    return JSON.stringify(parsed) === text;
  } catch {
    return false;
  }
}
