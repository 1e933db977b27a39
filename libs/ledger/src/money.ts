/** Decimal strings to integer paise and back: sums never touch a float. */
export function toPaise(amount: string): bigint {
  const m = /^(\d+)(?:\.(\d{1,2}))?$/.exec(amount);
  if (!m) throw new Error('not a decimal amount with at most 2 decimals');
  return BigInt(m[1] ?? '0') * 100n + BigInt((m[2] ?? '').padEnd(2, '0'));
}

export function fromPaise(p: bigint): string {
  const neg = p < 0n;
  const abs = neg ? -p : p;
  return `${neg ? '-' : ''}${abs / 100n}.${(abs % 100n).toString().padStart(2, '0')}`;
}

export function sumAmounts(amounts: Iterable<string>): string {
  let total = 0n;
  for (const a of amounts) total += toPaise(a);
  return fromPaise(total);
}
