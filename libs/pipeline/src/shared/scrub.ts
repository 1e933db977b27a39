import { ACCOUNT_MIN_DIGITS, maskAccountNumber, maskDigitRuns, redactDeep } from '#observability';

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

const isName = (c: number) =>
  (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 46 || c === 95 || c === 45;
const isDomain = (c: number) => isName(c) && c !== 95;

/**
 * `success@upi` -> `su***@upi`: every run of name characters (`[A-Za-z0-9._-]`) followed by `@`
 * and a domain (`[A-Za-z0-9.-]+`) keeps its first two characters. One pass: the equivalent
 * pattern, `/([A-Za-z0-9._-]{1,2})[A-Za-z0-9._-]*@([A-Za-z0-9.-]+)/g`, backtracks over a whole
 * run from each of its characters, quadratic in the run's length: a hostile command with a
 * 500 kB run of letters took minutes, longer than the consumer's session, and stalled its partition.
 */
function vpas(s: string): string {
  let out = '';
  let copied = 0; // s[0, copied) is in out
  let run = 0; // where the current run of name characters starts
  for (let i = 0; i < s.length; i += 1) {
    const c = s.charCodeAt(i);
    if (isName(c)) continue;
    if (c === 64 && i > run && isDomain(s.charCodeAt(i + 1))) {
      let end = i + 1;
      while (end < s.length && isDomain(s.charCodeAt(end))) end += 1;
      out += `${s.slice(copied, run)}${s.slice(run, Math.min(run + 2, i))}***@${s.slice(i + 1, end)}`;
      copied = end;
      i = end - 1;
    }
    run = i + 1;
  }
  return copied === 0 ? s : out + s.slice(copied);
}

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

/** Text that is not JSON (cut short, malformed, a Kafka key): secrets, digit runs and VPAs by pattern. */
export function scrubText(text: string): string {
  return vpas(
    digits(
      text.replace(
        SECRET_VALUE,
        (_m, prefix: string, close: string | undefined) => `${prefix}"[REDACTED]${close ?? '"'}`,
      ),
    ),
  );
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
