/**
 * Amounts are decimal strings end to end. A JS number would round 0.1 + 0.2 and large values, so
 * where the provider wants a JSON number the decimal literal is written into the JSON text as is.
 */
export const AMOUNT_PATTERN = /^\d{1,13}(\.\d{1,2})?$/;

export function isAmount(v: unknown): v is string {
  return typeof v === 'string' && AMOUNT_PATTERN.test(v);
}

/** Amount in hundredths, as a bigint, for comparisons that must not round. */
export function toMinorUnits(amount: string): bigint {
  const [whole = '0', frac = ''] = amount.split('.');
  return BigInt(whole) * 100n + BigInt(frac.padEnd(2, '0'));
}

export function amountAtLeast(amount: string, min: string): boolean {
  return toMinorUnits(amount) >= toMinorUnits(min);
}

/** A number written into JSON from its decimal text, never through a float. */
export class JsonDecimal {
  constructor(readonly literal: string) {
    if (!AMOUNT_PATTERN.test(literal)) throw new RangeError('not a decimal amount');
  }
}

export type JsonValue =
  | string
  | number
  | boolean
  | null
  | undefined
  | JsonDecimal
  | readonly JsonValue[]
  | { readonly [k: string]: JsonValue };

/** A small JSON writer: like JSON.stringify, but JsonDecimal becomes a bare number literal. */
export function writeJson(value: JsonValue): string {
  if (value instanceof JsonDecimal) return value.literal;
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string' || typeof value === 'boolean') return JSON.stringify(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new RangeError('non-finite number');
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map((v: JsonValue) => writeJson(v)).join(',')}]`;
  const obj = value as { readonly [k: string]: JsonValue };
  const parts: string[] = [];
  for (const [k, v] of Object.entries(obj)) {
    if (v === undefined) continue;
    parts.push(`${JSON.stringify(k)}:${writeJson(v)}`);
  }
  return `{${parts.join(',')}}`;
}
