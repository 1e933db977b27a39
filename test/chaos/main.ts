/**
 * `npm run chaos` (scripts/chaos.sh): one chaos run at the scale given on the command line or in
 * CHAOS_* variables (see config.ts), its figures printed and written to docs/RELIABILITY.md.
 * Exits non-zero on any violation.
 */
import { chaosConfig } from './config.js';
import { consoleReport } from './report.js';
import { runChaos } from './run.js';

const cfg = chaosConfig(process.argv.slice(2), process.env);
const result = await runChaos(cfg, (line) => console.log(line));
console.log(`\n${result.report}`);
console.log(consoleReport(result.checks));
process.exit(result.failed === 0 ? 0 : 1);
