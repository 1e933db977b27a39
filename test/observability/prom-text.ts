/** One sample of the Prometheus text format. */
export interface Sample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

/** Parses the text exposition format (what prom-client writes): samples and `# TYPE` lines. */
export function parseExposition(text: string): { samples: Sample[]; types: Map<string, string> } {
  const samples: Sample[] = [];
  const types = new Map<string, string>();
  for (const line of text.split('\n')) {
    if (line.startsWith('# TYPE ')) {
      const [, , name, type] = line.split(' ');
      if (name && type) types.set(name, type);
      continue;
    }
    if (line === '' || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)/.exec(line);
    if (!m) throw new Error(`unparsable metrics line: ${line}`);
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) {
      labels[l[1] ?? ''] = l[2] ?? '';
    }
    samples.push({ name: m[1] ?? '', labels, value: Number(m[3]) });
  }
  return { samples, types };
}

/** Every series name a scrape can hold: declared names, plus _bucket/_sum/_count of histograms. */
export function exposedNames(types: ReadonlyMap<string, string>): Set<string> {
  const names = new Set<string>();
  for (const [name, type] of types) {
    names.add(name);
    if (type === 'histogram' || type === 'summary') {
      for (const s of ['_bucket', '_sum', '_count']) names.add(`${name}${s}`);
    }
  }
  return names;
}

/** The value of the one sample with this name whose labels include `labels`; undefined if none. */
export function valueOf(
  samples: readonly Sample[],
  name: string,
  labels: Record<string, string> = {},
): number | undefined {
  const hits = samples.filter(
    (s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v),
  );
  if (hits.length === 0) return undefined;
  return hits.reduce((a, s) => a + s.value, 0);
}

// PromQL words that look like metric names but are functions, keywords or our label values.
const PROMQL_WORDS = new Set([
  'sum',
  'min',
  'max',
  'avg',
  'count',
  'rate',
  'irate',
  'increase',
  'by',
  'without',
  'on',
  'ignoring',
  'group_left',
  'group_right',
  'and',
  'or',
  'unless',
  'histogram_quantile',
  'le',
  'offset',
  'bool',
  'abs',
  'delta',
  'deriv',
  'absent',
  'clamp_min',
  'clamp_max',
  'topk',
  'bottomk',
  'time',
  'vector',
]);

/**
 * Metric names referenced by a PromQL expression: identifiers not followed by `(`, outside label
 * matchers, `by (...)` groupings, strings and range selectors.
 */
export function metricNamesIn(expr: string): string[] {
  const cleaned = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, '')
    .replace(/\[[^\]]*\]/g, '')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, '');
  const names = new Set<string>();
  for (const m of cleaned.matchAll(/[a-zA-Z_:][a-zA-Z0-9_:]*/g)) {
    const w = m[0];
    const next = cleaned.slice((m.index ?? 0) + w.length).trimStart();
    if (next.startsWith('(')) continue;
    if (PROMQL_WORDS.has(w) || /^\d/.test(w)) continue;
    names.add(w);
  }
  return [...names];
}
