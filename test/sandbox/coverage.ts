import { isDocumented } from '#sandbox';

interface TableCount {
  rows: number;
  documented: number;
  covered: number;
  documentedCovered: number;
  missing: string[];
}

/** Counts error-table rows walked by the conformance suite and prints the report. */
export class CoverageReport {
  private readonly tables = new Map<string, TableCount>();

  table(
    name: string,
    rows: Readonly<Record<string, { readonly documented?: boolean }>>,
    covered: ReadonlySet<string>,
  ): void {
    const c: TableCount = { rows: 0, documented: 0, covered: 0, documentedCovered: 0, missing: [] };
    for (const [key, row] of Object.entries(rows)) {
      const doc = isDocumented(row);
      c.rows += 1;
      if (doc) c.documented += 1;
      if (covered.has(key)) {
        c.covered += 1;
        if (doc) c.documentedCovered += 1;
      } else {
        c.missing.push(key);
      }
    }
    this.tables.set(name, c);
  }

  totals(): { documented: number; documentedCovered: number; rows: number; covered: number } {
    let documented = 0;
    let documentedCovered = 0;
    let rows = 0;
    let covered = 0;
    for (const c of this.tables.values()) {
      documented += c.documented;
      documentedCovered += c.documentedCovered;
      rows += c.rows;
      covered += c.covered;
    }
    return { documented, documentedCovered, rows, covered };
  }

  print(): void {
    const lines = ['', 'Sandbox error-table coverage (rows walked over HTTP):'];
    for (const [name, c] of this.tables) {
      const missing = c.missing.length > 0 ? `  missing: ${c.missing.join(', ')}` : '';
      lines.push(
        `  ${name.padEnd(24)} documented ${c.documentedCovered}/${c.documented}  all ${c.covered}/${c.rows}${missing}`,
      );
    }
    const t = this.totals();
    lines.push(
      `  TOTAL documented rows covered: ${t.documentedCovered}/${t.documented}; all rows: ${t.covered}/${t.rows}`,
    );
    console.log(lines.join('\n'));
  }
}
