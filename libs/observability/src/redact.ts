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

export function isSecretKey(key: string): boolean {
  return SECRET_KEYS.has(normaliseKey(key));
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
  for (const [k, v] of Object.entries(src)) {
    const nk = normaliseKey(k);
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
