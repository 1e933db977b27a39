/**
 * Money as integer paise (bigint). Amounts arrive as JSON numbers or strings; a number is read
 * through its shortest decimal text (`String(n)`), so `10.1` is the decimal 10.1, never a float sum.
 */
export type Paise = bigint;

export interface ParsedAmount {
  /** Whole paise; only meaningful when `decimals <= 2`. */
  readonly paise: Paise;
  /** How many decimal places the caller sent. */
  readonly decimals: number;
}

const AMOUNT_RE = /^(\d{1,15})(?:\.(\d{1,12}))?$/;

export function parseAmount(input: unknown): ParsedAmount | undefined {
  let text: string;
  if (typeof input === 'string') text = input.trim();
  else if (typeof input === 'number' && Number.isFinite(input) && input >= 0) text = String(input);
  else return undefined;
  const m = AMOUNT_RE.exec(text);
  if (!m) return undefined;
  const whole = m[1] ?? '0';
  const frac = (m[2] ?? '').replace(/0+$/, '');
  const cents = frac.slice(0, 2).padEnd(2, '0');
  return { paise: BigInt(whole) * 100n + BigInt(cents), decimals: frac.length };
}

/** `1050n` -> `"10.50"`. */
export function formatPaise(p: Paise): string {
  const sign = p < 0n ? '-' : '';
  const abs = p < 0n ? -p : p;
  return `${sign}${abs / 100n}.${(abs % 100n).toString().padStart(2, '0')}`;
}

/** Rupees to paise for constants: `rupees(100)` is 10000n. */
export function rupees(r: number | bigint): Paise {
  return BigInt(r) * 100n;
}

/** Parses a configured amount ("1000000.00"); throws on a bad value (boot-time only). */
export function paiseFromConfig(text: string): Paise {
  const a = parseAmount(text);
  if (!a || a.decimals > 2) throw new Error(`not an amount with at most 2 decimals: ${text}`);
  return a.paise;
}
