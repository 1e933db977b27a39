/** `a, b` -> `p.a, p.b`: a column list for RETURNING / SELECT under a table alias. */
export function qualify(columns: string, alias: string): string {
  return columns
    .split(',')
    .map((c) => `${alias}.${c.trim()}`)
    .join(', ');
}
