/**
 * `npm test`'s test step: one runner for unit (*.spec) and integration (*.int-spec) files, so its
 * closing lines count them all, with the slowest files started first.
 *
 * `node --test` sorts the files it is given by name, so the slowest one (the chaos run's short
 * variant, about 100 s) started wherever its name put it and, started late, ended the run alone
 * on one core. Longest first is the usual remedy for a fixed number of workers: the short files
 * fill the gaps at the end. The list below is measured (each file alone, `node --test <file>`);
 * a file not on it starts after them, in name order, and a wrong guess only costs time.
 *
 *   node dist/scripts/run-tests.js [--concurrency=N]     (default 2: this is a 2-core machine)
 */
import { glob } from 'node:fs/promises';
import { resolve } from 'node:path';
import { run } from 'node:test';
import { spec } from 'node:test/reporters';

const PATTERNS = ['dist/apps/**/*.spec.js', 'dist/libs/**/*.spec.js', 'dist/test/**/*.int-spec.js'];

/** Started first, in this order (slowest first; seconds alone on this machine in brackets). */
const SLOW_FIRST: readonly string[] = [
  'dist/test/chaos/chaos.int-spec.js', // (95-110)
  'dist/test/pipeline/in-flight.int-spec.js', // (60)
  'dist/test/pipeline/crash-recovery.int-spec.js', // (40)
  'dist/test/pipeline/shared-rate-budget.int-spec.js', // (35)
  'dist/test/foundation/readiness.int-spec.js', // (25)
  'dist/test/foundation/kafka-transport-close.int-spec.js', // (25)
  'dist/test/pipeline/roles-split.int-spec.js', // (25)
  'dist/test/pipeline/stored-requests.int-spec.js', // (20)
  'dist/test/pipeline/ordering-and-scale.int-spec.js', // (20)
];

/** The files in name order, the known slow ones moved to the front in SLOW_FIRST's order. */
function startOrder(files: readonly string[], slowFirst: readonly string[] = SLOW_FIRST): string[] {
  const present = new Set(files);
  const first = slowFirst.filter((f) => present.has(f));
  const early = new Set(first);
  return [...first, ...[...files].sort().filter((f) => !early.has(f))];
}

const concurrencyArg = process.argv.find((a) => a.startsWith('--concurrency='));
const concurrency = concurrencyArg ? Number(concurrencyArg.split('=')[1]) : 2;
if (!Number.isInteger(concurrency) || concurrency < 1) throw new Error(`bad ${concurrencyArg}`);

const files: string[] = [];
for (const pattern of PATTERNS) for await (const f of glob(pattern)) files.push(f);
if (files.length === 0) throw new Error(`no test files under ${PATTERNS.join(', ')}: build first`);

const stream = run({
  files: startOrder(files).map((f) => resolve(f)),
  concurrency,
  timeout: 180_000,
});
stream.on('test:fail', () => {
  process.exitCode = 1;
});
stream.compose(spec).pipe(process.stdout);
