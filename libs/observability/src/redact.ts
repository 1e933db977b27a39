/**
 * Redaction is by key name, at any depth, so a secret nested in an error's `cause` or a request
 * body is caught without listing paths. Keys are compared case-insensitively with separators removed.
 */
const SECRET_KEYS = new Set(
  [
    'authorization',
    'clientsecret',
    'xclientsecret',
    'secret',
    'password',
    'token',
    'accesstoken',
    'bearertoken',
    'transfertoken',
    'cardtoken',
    'cryptogram',
    'sdktoken',
    'xsvcsignature',
    'signature',
    'privatekey',
    'encryptionkey',
    'databaseurl',
  ].map(normaliseKey),
);

/** Personal data: kept recognisable for support, never in full. */
const MASKED_KEYS: ReadonlyMap<string, (v: string) => string> = new Map([
  [normaliseKey('bankAccount'), maskAccountNumber],
  [normaliseKey('accountNumber'), maskAccountNumber],
  [normaliseKey('vpa'), maskVpa],
  [normaliseKey('phone'), maskTail],
  [normaliseKey('email'), maskEmail],
]);

export const REDACTED = '[REDACTED]';

function normaliseKey(k: string): string {
  return k.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/** `026291800001191` -> `XXXXXXXXXXX1191`. Short values are masked whole. */
export function maskAccountNumber(v: string): string {
  if (v.length <= 4) return 'X'.repeat(v.length);
  return 'X'.repeat(v.length - 4) + v.slice(-4);
}

/** Bank account numbers have 6 digits or more (the command schema's bankAccount). */
export const ACCOUNT_MIN_DIGITS = 6;
const ALWAYS_MASKED_DIGITS = 9;
const CURRENCY_BEFORE = /(?:Rs\.?|INR|₹)\s?$/i;

/**
 * Free text (a provider's message, a truncated payload) may carry an account number: every run of
 * `minDigits` or more digits keeps only its last 4. A shorter run than 9 digits that reads as an
 * amount ("Rs. 100000", "100000.00") is kept: provider messages quote limits.
 */
export function maskDigitRuns(text: string, minDigits = ALWAYS_MASKED_DIGITS): string {
  return text.replace(new RegExp(`\\d{${minDigits},}`, 'g'), (d: string, at: number) => {
    const amount =
      d.length < ALWAYS_MASKED_DIGITS &&
      (CURRENCY_BEFORE.test(text.slice(Math.max(0, at - 5), at)) || /^\.\d/.test(text.slice(at + d.length)));
    return amount ? d : maskAccountNumber(d);
  });
}

/** `success@upi` -> `su***@upi`. */
export function maskVpa(v: string): string {
  const at = v.indexOf('@');
  if (at < 0) return maskTail(v);
  const user = v.slice(0, at);
  return `${user.slice(0, Math.min(2, Math.max(0, user.length - 1)))}***${v.slice(at)}`;
}

export function maskEmail(v: string): string {
  const at = v.indexOf('@');
  return at <= 0 ? maskTail(v) : `${v[0] ?? ''}***${v.slice(at)}`;
}

/** `9876543210` -> `********10`. */
export function maskPhone(v: string): string {
  return maskTail(v);
}

const isName = (c: number) =>
  (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 46 || c === 95 || c === 45;
const isDomain = (c: number) => isName(c) && c !== 95;

/**
 * E-mail addresses and VPAs in free text: `success@upi` -> `su***@upi`, `asha.rao@example.com` ->
 * `as***@example.com`. Every run of name characters (`[A-Za-z0-9._-]`) followed by `@` and a
 * domain (`[A-Za-z0-9.-]+`) keeps its first two characters. One pass: the equivalent pattern,
 * `/([A-Za-z0-9._-]{1,2})[A-Za-z0-9._-]*@([A-Za-z0-9.-]+)/g`, backtracks over a whole run from
 * each of its characters, quadratic in the run's length: a hostile command with a 500 kB run of
 * letters took minutes, longer than the consumer's session, and stalled its partition.
 */
export function maskAddresses(s: string): string {
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
 * Free text from outside (a provider's message, a webhook's reason, a database error's detail):
 * runs of 6 digits or more that may be account numbers keep their last 4 (amounts stay), and
 * e-mail addresses and VPAs keep their first two characters and their domain.
 */
export function maskFreeText(text: string): string {
  return maskAddresses(maskDigitRuns(text, ACCOUNT_MIN_DIGITS));
}

/**
 * Fields of a database error (pg's DatabaseError) that quote the data: `detail` ("Failing row
 * contains (...)": the whole row, the request JSON; "Key (...)=(...)": the key's values), `where`
 * and `internalQuery`. A failing row is withheld; a key's values and the rest are masked as free
 * text. The SQLSTATE, table, column and constraint names stay: they are what a person needs.
 */
const DATABASE_TEXT_KEYS = new Set(['detail', 'where', 'internalquery', 'hint']);

function maskDatabaseText(v: string): string {
  const row = /^Failing row contains \(/.exec(v);
  if (row) return `Failing row contains ${REDACTED}`;
  return maskFreeText(v);
}

function maskTail(v: string): string {
  return v.length <= 2 ? '**' : `${'*'.repeat(v.length - 2)}${v.slice(-2)}`;
}

/**
 * Deeper than this, a value is replaced: a hostile command can nest far past the call stack, and
 * a stack overflow here would fail (and redeliver) its whole Kafka batch forever.
 */
const MAX_DEPTH = 64;

/** Returns a copy with secrets replaced and personal data masked. Handles cycles, Errors and deep nesting. */
export function redactDeep(value: unknown, seen: WeakSet<object> = new WeakSet(), depth = 0): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_DEPTH) return '[Too deep]';
  if (seen.has(value)) return '[Circular]';
  seen.add(value);
  if (Array.isArray(value)) return value.map((v) => redactDeep(v, seen, depth + 1));
  if (value instanceof Date) return value;
  const src: Record<string, unknown> =
    value instanceof Error
      ? {
          type: value.name,
          message: value.message,
          stack: value.stack,
          ...(value as unknown as Record<string, unknown>),
        }
      : (value as Record<string, unknown>);
  const out: Record<string, unknown> = {};
  const isError = value instanceof Error;
  for (const [k, v] of Object.entries(src)) {
    const nk = normaliseKey(k);
    if (isError && DATABASE_TEXT_KEYS.has(nk) && typeof v === 'string') {
      out[k] = maskDatabaseText(v);
      continue;
    }
    if (SECRET_KEYS.has(nk)) {
      out[k] = v === undefined || v === null || v === '' ? v : REDACTED;
      continue;
    }
    const mask = MASKED_KEYS.get(nk);
    if (mask && typeof v === 'string') {
      out[k] = mask(v);
      continue;
    }
    out[k] = redactDeep(v, seen, depth + 1);
  }
  if (value instanceof Error && value.cause !== undefined)
    out['cause'] = redactDeep(value.cause, seen, depth + 1);
  return out;
}
