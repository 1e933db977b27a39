/**
 * The benchmark's table: every phase returns, for one run, a list of rows (one figure each); the
 * harness runs the whole sequence of phases BENCH_RUNS times and this file groups each measure's
 * figures across the runs into one line: median, spread (min-max), the runs' figures, the target
 * and whether the median meets it.
 */

/** A goal for a measure, checked against the median of its runs. */
export interface Target {
  readonly op: '>=' | '>' | '<=' | '<';
  readonly value: number;
}

/** One figure of one run of a phase. Rows of the same `measure` (across runs) make one line. */
export interface Row {
  /** The line's label, the same in every run (set-up included, e.g. "end to end, two instances"). */
  readonly measure: string;
  readonly value: number;
  /** Printed after the figure: 'cmd/s', 'payouts/s', 'ms', 'MB', 'x', or '' for a plain count. */
  readonly unit: string;
  readonly target?: Target;
  /** Decimals to print (default 0, with thousands separators). */
  readonly digits?: number;
}

export interface Line {
  readonly measure: string;
  readonly unit: string;
  readonly digits: number;
  readonly target: Target | undefined;
  /** One slot per run; undefined where that run's phase failed or did not produce the figure. */
  readonly values: Array<number | undefined>;
}

export function median(values: readonly number[]): number {
  const s = [...values].sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? (s[mid] ?? NaN) : ((s[mid - 1] ?? NaN) + (s[mid] ?? NaN)) / 2;
}

export function meets(value: number, t: Target): boolean {
  switch (t.op) {
    case '>=':
      return value >= t.value;
    case '>':
      return value > t.value;
    case '<=':
      return value <= t.value;
    case '<':
      return value < t.value;
  }
}

/** Collects rows run by run, keeping the order in which measures first appeared. */
export class Results {
  private readonly lines = new Map<string, Line>();

  constructor(readonly runs: number) {}

  add(run: number, rows: readonly Row[]): void {
    for (const r of rows) {
      let line = this.lines.get(r.measure);
      if (!line) {
        line = {
          measure: r.measure,
          unit: r.unit,
          digits: r.digits ?? 0,
          target: r.target,
          values: Array.from({ length: this.runs }, () => undefined),
        };
        this.lines.set(r.measure, line);
      }
      line.values[run] = r.value;
    }
  }

  /** The figure of one measure in one run (for ratios computed per run). */
  value(run: number, measure: string): number | undefined {
    return this.lines.get(measure)?.values[run];
  }

  all(): Line[] {
    return [...this.lines.values()];
  }
}

function num(n: number, digits: number): string {
  if (!Number.isFinite(n)) return 'n/a';
  return n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

function withUnit(text: string, unit: string): string {
  if (unit === '') return text;
  return unit === 'x' ? `${text}x` : `${text} ${unit}`;
}

export function targetText(t: Target | undefined, unit: string, digits: number): string {
  if (!t) return '';
  const op = { '>=': '≥', '>': '>', '<=': '≤', '<': '<' }[t.op];
  return `${op} ${withUnit(num(t.value, digits), unit)}`;
}

export interface Rendered {
  readonly median: string;
  readonly spread: string;
  readonly runs: string;
  readonly target: string;
  readonly met: string;
}

export function render(line: Line): Rendered {
  const got = line.values.filter((v): v is number => v !== undefined && Number.isFinite(v));
  const m = median(got);
  const missing = line.values.length - got.length;
  return {
    median: got.length === 0 ? 'failed' : withUnit(num(m, line.digits), line.unit),
    spread:
      got.length < 2 ? '' : `${num(Math.min(...got), line.digits)}–${num(Math.max(...got), line.digits)}`,
    runs:
      line.values.map((v) => (v === undefined ? 'failed' : num(v, line.digits))).join(' · ') +
      (missing > 0 ? ` (${got.length} of ${line.values.length})` : ''),
    target: targetText(line.target, line.unit, line.digits),
    met: line.target && got.length > 0 ? (meets(m, line.target) ? 'yes' : '**no**') : '',
  };
}

/**
 * Rows whose measure starts with this prefix are the CPU table's (`cpu:<phase>|<group>`), rendered
 * apart by `cpuMarkdown`: one line per phase, one column per process group.
 */
export const CPU_PREFIX = 'cpu:';

/** The table in Markdown: one line per measure (the CPU rows aside). */
export function markdown(results: Results): string {
  const n = results.runs;
  const head =
    n > 1
      ? ['measure', `median of ${n}`, 'spread (min–max)', 'runs, in order', 'target', 'met']
      : ['measure', 'result (1 run)', 'target', 'met'];
  const cell = (s: string): string => s.replace(/\|/g, '\\|');
  const out = [`| ${head.join(' | ')} |`, `| ${head.map(() => '---').join(' | ')} |`];
  for (const line of results.all()) {
    if (line.measure.startsWith(CPU_PREFIX)) continue;
    const r = render(line);
    const cells = n > 1 ? [r.median, r.spread, r.runs] : [r.median];
    out.push(`| ${[line.measure, ...cells, r.target, r.met].map(cell).join(' | ')} |`);
  }
  return out.join('\n');
}

/**
 * CPU time per payout (command, message) by process, one line per phase: each cell the median of
 * the runs and, with more than one, their spread.
 */
export function cpuMarkdown(results: Results): string {
  const phases = new Map<string, Map<string, Line>>();
  for (const line of results.all()) {
    if (!line.measure.startsWith(CPU_PREFIX)) continue;
    const [phase = '', group = ''] = line.measure.slice(CPU_PREFIX.length).split('|');
    let groups = phases.get(phase);
    if (!groups) phases.set(phase, (groups = new Map<string, Line>()));
    groups.set(group, line);
  }
  if (phases.size === 0) return '';
  const groups = [...new Set([...phases.values()].flatMap((g) => [...g.keys()]))];
  const n = results.runs;
  const head = ['phase', ...groups];
  const out = [
    `CPU time per unit by process, from /proc (user + system), over each phase's load; ${n > 1 ? `median of ${n} runs (spread min–max)` : '1 run'}. "pipeline" is the sum of the pipeline's processes; "other" is the rest of the box (other jobs), left out of it.`,
    '',
    `| ${head.join(' | ')} |`,
    `| ${head.map(() => '---').join(' | ')} |`,
  ];
  for (const [phase, byGroup] of phases) {
    const cells = groups.map((g) => {
      const line = byGroup.get(g);
      if (!line) return '';
      const r = render(line);
      return r.spread === '' ? r.median : `${r.median} (${r.spread})`;
    });
    out.push(`| ${[phase, ...cells].join(' | ')} |`);
  }
  return out.join('\n');
}
